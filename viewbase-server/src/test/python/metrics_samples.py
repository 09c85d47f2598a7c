"""Reads a Prometheus text exposition on stdin with the Prometheus client's own parser and prints
every sample as one line: family type, sample name, labels (k=v, sorted, comma-joined), value,
separated by tabs. Exits non-zero if the text does not parse. Used by MetricsScrapeTest."""
import sys

from prometheus_client.parser import text_string_to_metric_families

text = sys.stdin.read(16 * 1024 * 1024)
for family in text_string_to_metric_families(text):
    for sample in family.samples:
        labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
        print(f"{family.type}\t{sample.name}\t{labels}\t{sample.value!r}")
