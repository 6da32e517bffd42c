# m1-article.plot: the four charts of "What boost can Apple's M1 give to
# Redis?": requests per second against pipeline depth, one panel per
# command group.  rsweep plot --plot m1-article m1.csv intel.csv -o m1.pdf
metric = rps

[Commands for regular keys]
tests = get,set,incr,mset

[Commands for lists]
tests = lpush,rpush,lpop,rpop,lrange_*

[Commands for sets]
tests = sadd,spop

[Commands for hash and sorted set]
tests = hset,zadd,zpopmin
