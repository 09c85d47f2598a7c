package io.viewbase.cli;

import io.viewbase.api.Database;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that reads or writes data: it opens the database its options name (a server, or a data
 * directory), runs, and closes it again, whatever happened. It exits 0 unless it failed (an
 * exception: exit 1) or {@link #exitWith} named an outcome of its own (such as drift found).
 */
abstract class DataCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseTarget target;

  @Mixin Output output;

  private int exitCode;

  @Override
  public final Integer call() {
    try (Database db = target.open()) {
      run(db);
      return exitCode;
    } catch (RuntimeException failure) {
      throw target.explain(failure);
    }
  }

  abstract void run(Database db);

  /** Ends the command with this exit code once {@link #run} returns. */
  void exitWith(int code) {
    exitCode = code;
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
