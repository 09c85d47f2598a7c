package io.viewbase.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;

/** Runs the viewbase command line in this JVM and captures what it printed. */
record Cli(int exitCode, String out, String err) {

  static Cli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode =
        Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new Cli(exitCode, out.toString(), err.toString());
  }

  /** Runs with the given arguments followed by the connection arguments. */
  static Cli run(List<String> connection, String... args) {
    String[] all = Arrays.copyOf(args, args.length + connection.size());
    for (int i = 0; i < connection.size(); i++) {
      all[args.length + i] = connection.get(i);
    }
    return run(all);
  }

  List<String> lines() {
    return out.lines().toList();
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
