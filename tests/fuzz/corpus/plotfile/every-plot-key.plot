# Plot options as globals, then panels of each kind.
metric = p99
size = 1600x900
kind = speedup
title = Latency against depth
[All GET tests]
tests = get
kind = lines
[Speed-up of writes]
tests = set,incr,lpush,rpush,mset
kind = speedup
title = Writes, relative to P=1
[Everything else]
