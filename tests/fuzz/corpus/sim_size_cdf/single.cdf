# one size
4096 100
