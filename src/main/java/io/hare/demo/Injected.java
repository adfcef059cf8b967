package io.hare.demo;

import java.util.List;

/**
 * One fault of a demo run, as the harness did it (or, for a task failure, saw it happen).
 *
 * @param fault the fault's name ({@link Fault#label})
 * @param atMs when, epoch milliseconds as every time of the demo's JSON; -1 when it was asked for
 *     but never came due (the jobs ended first)
 * @param detail what was done, to what, and what YARN did about it
 * @param containers the containers it hit (killed, lost, or running through it)
 */
public record Injected(String fault, long atMs, String detail, List<String> containers) {

  public Injected {
    containers = List.copyOf(containers);
  }

  public boolean happened() {
    return atMs >= 0;
  }
}
