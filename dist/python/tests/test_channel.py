import os
import tempfile
import unittest

from hare_worker import channel_key, proof, save_atomically

VECTOR_KEY = bytes(range(32))
VECTOR_GREETING = "hare-channel 1 " + "ab" * 32
VECTOR_CONTAINER = "container_1700000000000_0007_01_000004"
VECTOR_PROOF = "6d558218cc99035cdda200e4534213bc60e6c77818b79d3ab0b1e76945f983dc"


class ProofTest(unittest.TestCase):

    def test_the_protocols_test_vector(self):
        self.assertEqual(VECTOR_PROOF, proof(VECTOR_KEY, VECTOR_GREETING, VECTOR_CONTAINER))


class ChannelKeyTest(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "container_tokens")

    def tearDown(self):
        self.dir.cleanup()

    def write(self, data):
        with open(self.path, "wb") as f:
            f.write(data)
        os.chmod(self.path, 0o644)

    def test_the_one_key_among_other_tokens(self):
        key = bytes(range(100, 132))
        self.write(b"HDTS\x00\x01\x10hare.channel.key\xff\x00hare-channel-key:" + key.hex().encode()
                   + b"\x00\x07HDFS_DELEGATION_TOKEN\x8e\x01garbage-ff00")
        self.assertEqual(key, channel_key(self.path))
        self.assertEqual(0o600, os.stat(self.path).st_mode & 0o777, "made private first")

    def test_no_key(self):
        self.write(b"HDTS\x00\x00 hare-channel-key:" + b"ab" * 31 + b"\n")
        self.assertIsNone(channel_key(self.path), "62 hex digits are no key")
        self.write(b"hare-channel-key:" + b"AB" * 32)
        self.assertIsNone(channel_key(self.path), "upper-case hex is not the key's form")
        self.write(b"")
        self.assertIsNone(channel_key(self.path))

    def test_an_unreadable_file_raises(self):
        with self.assertRaises(OSError):
            channel_key(os.path.join(self.dir.name, "none"))


class SaveAtomicallyTest(unittest.TestCase):

    def test_bytes_or_a_writer_and_no_temporary_file_left(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "grad-r0-t1.pt")
            save_atomically(p, b"one")
            save_atomically(p, lambda f: f.write(b"two"))
            with open(p, "rb") as f:
                self.assertEqual(b"two", f.read())

            def fails(f):
                f.write(b"half")
                raise RuntimeError("killed mid-write")
            with self.assertRaises(RuntimeError):
                save_atomically(p, fails)
            with open(p, "rb") as f:
                self.assertEqual(b"two", f.read(), "the old file stands")
            self.assertEqual(["grad-r0-t1.pt"], os.listdir(d))


if __name__ == "__main__":
    unittest.main()
