/**
 * What the side-by-side SDK benchmarks share: one workload driven through an official SDK against
 * Viewbase's dialect and against the emulator it replaces, in one run, each phase measured by
 * {@link io.viewbase.benchmarks.sidebyside.LoadLoop} (closed-loop clients, latencies, the server's
 * CPU time from {@code /proc}) and printed side by side with the ratios by {@link
 * io.viewbase.benchmarks.sidebyside.ResultTable}. Each dialect's package holds its workload, its
 * clients and its targets ({@code azure}: Azurite; {@code dynamodb}: dynalite).
 */
package io.viewbase.benchmarks.sidebyside;
