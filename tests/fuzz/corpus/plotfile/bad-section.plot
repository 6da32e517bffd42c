x = 1
[unterminated
