a=1
bbb   = "x"
