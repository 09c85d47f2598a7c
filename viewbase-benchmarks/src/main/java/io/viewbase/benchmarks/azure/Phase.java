package io.viewbase.benchmarks.azure;

import java.util.function.Function;

/** A measured phase of the workload: its name, how many clients run it and its operation. */
record Phase(String name, int clients, Function<Workload, Operation> operation) {}
