package main

import _ "hivearbiter/internal/protocols" // every protocol, each registered by proto= name
