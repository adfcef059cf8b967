package io.hare.yarn.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.yarn.api.records.ContainerId;

/** A task runner speaking the task channel by hand over a real socket, for tests. */
final class TestingRunner implements AutoCloseable {

  private final Socket socket;
  private final BufferedReader in;
  private final OutputStream out;
  /** The server's first line, once {@link #greeting} has read it. */
  String greeting;

  TestingRunner(RunnerServer server) throws IOException {
    socket = new Socket(server.address(), server.port());
    socket.setSoTimeout(30_000);
    in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
        StandardCharsets.US_ASCII));
    out = socket.getOutputStream();
  }

  /** The next line from the server; null once the server closed the connection. */
  String readLine() throws IOException {
    try {
      return in.readLine();
    } catch (SocketException e) {
      return null; // reset: the server closed with bytes of ours unread
    }
  }

  /** Whether a line (or part of one) from the server has arrived and is not read yet. */
  boolean lineWaiting() throws IOException {
    return in.ready();
  }

  /** Reads the server's greeting (or its refusal). */
  String greeting() throws IOException {
    greeting = readLine();
    return greeting;
  }

  void send(String line) throws IOException {
    out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  void sendBytes(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Reads the greeting and says hello as {@code container} proving {@code key}: the answer. */
  String hello(ContainerId container, byte[] key) throws IOException {
    String g = greeting();
    send(helloLine(g, container, key));
    return readLine();
  }

  static String helloLine(String greeting, ContainerId container, byte[] key) {
    return "hello " + RunnerServer.VERSION + " " + container + " "
        + ChannelKeys.proof(key, greeting, container.toString());
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
