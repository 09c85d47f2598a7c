package io.viewbase.benchmarks.sidebyside;

import java.util.function.Function;

/**
 * A measured phase of a workload: its name, how many clients run it and its operation on a workload
 * of type {@code W} (one per server).
 */
public record Phase<W>(String name, int clients, Function<W, Operation> operation) {}
