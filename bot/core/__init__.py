"""Records and leaves: plain records, settings, shards, metrics, shipped files, the outage error."""
