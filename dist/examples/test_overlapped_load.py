"""Tests of overlapped_load.py on the CPU (python3 -m unittest test_overlapped_load, from this
directory). Skipped without PyTorch."""

import time
import unittest

try:
    import torch
    import torch.nn as nn
except ImportError:  # the examples' other tests need no torch
    torch = None

from overlapped_load import OverlappedLoad


def mlp(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Flatten(), nn.Linear(48, 64), nn.ReLU(), nn.BatchNorm1d(64),
                         nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))


class SlowSource(torch.Tensor if torch is not None else object):
    """A tensor whose copy into another takes 0.3 s: the copy of its module is still running
    when the forward pass reaches that module."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.Tensor.copy_:
            time.sleep(0.3)
        return super().__torch_function__(func, types, args, kwargs or {})


def step(model, x, y):
    """One training step's loss and gradients."""
    model.train()
    model.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]


@unittest.skipIf(torch is None, "no PyTorch")
class OverlappedLoadTest(unittest.TestCase):

    def setUp(self):
        torch.use_deterministic_algorithms(True)
        g = torch.Generator().manual_seed(3)
        self.x = torch.randn(16, 3, 4, 4, generator=g)
        self.y = torch.arange(16) % 10
        self.state = {k: v.clone() for k, v in mlp(7).state_dict().items()}

    def test_a_step_during_the_load_equals_one_after_load_state_dict(self):
        before = mlp(1)
        before.load_state_dict(self.state)
        expected = step(before, self.x, self.y)

        during = mlp(1)  # other values until the load
        with OverlappedLoad(torch, during, self.state):
            got = step(during, self.x, self.y)
        self.assertEqual(expected[0], got[0])
        for a, b in zip(expected[1], got[1]):
            self.assertTrue(torch.equal(a, b))
        for k, v in during.state_dict().items():
            self.assertTrue(torch.equal(v, before.state_dict()[k]), k)

    def test_each_module_computes_with_its_new_tensors(self):
        model = mlp(1)
        seen = []

        def check(module, inputs):  # registered after the load's own hook, so runs after it
            for name, t in list(module.named_parameters(recurse=False)) + list(
                    module.named_buffers(recurse=False)):
                key = names[module] + "." + name
                seen.append(key)
                self.assertTrue(torch.equal(t, self.state[key]), key)

        names = {m: n for n, m in model.named_modules()}
        state = dict(self.state)
        state["6.weight"] = self.state["6.weight"].as_subclass(SlowSource)
        with OverlappedLoad(torch, model, state):
            hooks = [m.register_forward_pre_hook(check) for m in model.modules()]
            model.eval()
            with torch.no_grad():
                model(self.x)
        for h in hooks:
            h.remove()
        self.assertEqual(sorted(self.state), sorted(seen))

    def test_a_state_of_another_network_is_refused_before_anything_is_copied(self):
        model = mlp(1)
        kept = {k: v.clone() for k, v in model.state_dict().items()}
        bad = dict(self.state)
        bad["1.weight"] = torch.zeros(5, 5)
        del bad["6.bias"]
        bad["extra"] = torch.zeros(1)
        with self.assertRaises(ValueError) as e:
            OverlappedLoad(torch, model, bad)
        for word in ("6.bias", "extra", "1.weight"):
            self.assertIn(word, str(e.exception))
        for k, v in model.state_dict().items():
            self.assertTrue(torch.equal(v, kept[k]), k)

    def test_a_task_that_fails_leaves_every_tensor_loaded_and_no_hook(self):
        model = mlp(1)
        with self.assertRaises(RuntimeError):
            with OverlappedLoad(torch, model, self.state):
                model(torch.randn(2, 5))  # wrong input shape: the task fails
        for k, v in model.state_dict().items():
            self.assertTrue(torch.equal(v, self.state[k]), k)
        self.assertTrue(all(not m._forward_pre_hooks for m in model.modules()))


if __name__ == "__main__":
    unittest.main()
