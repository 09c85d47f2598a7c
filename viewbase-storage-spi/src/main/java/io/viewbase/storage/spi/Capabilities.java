package io.viewbase.storage.spi;

/**
 * What a backend guarantees, declared rather than assumed: core and the documentation read these
 * instead of knowing backends by name.
 *
 * @param atomicMultiPartitionBatch a batch spanning partitions is all-or-nothing
 * @param isolatedBatches a batch's conditions and writes are one serializable step: no reader sees
 *     half of it, no writer interleaves (false for a logged batch that is atomic but not isolated)
 * @param orderedPartitions partitions enumerate in byte order of their keys (otherwise in a backend
 *     order, e.g. by token)
 * @param snapshots {@link Store#snapshot()} gives a point-in-time view
 * @param durableCommits a synced commit survives a process or machine crash
 * @param groupCommit concurrent synced commits share one log sync
 * @param sequences {@link Mutation.Append} is supported: numbers assigned at commit, dense and in
 *     commit order per sequence
 */
public record Capabilities(
    boolean atomicMultiPartitionBatch,
    boolean isolatedBatches,
    boolean orderedPartitions,
    boolean snapshots,
    boolean durableCommits,
    boolean groupCommit,
    boolean sequences) {}
