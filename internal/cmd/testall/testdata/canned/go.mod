module canned

go 1.26
