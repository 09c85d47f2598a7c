package io.viewbase.cli;

/** How a command prints items and tables. */
enum OutputFormat {
  /** One JSON object per line (JSON Lines): for scripts and {@code jq}. */
  json,
  /** Aligned columns for people; long values are cut. */
  table
}
