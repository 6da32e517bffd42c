[only a panel]
tests = lrange_*
[bad]
kind = bars
