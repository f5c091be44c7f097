package hivebot_test

import (
	"hivearbiter/enginekit/hivebot"
	"hivearbiter/internal/hivebotcmd"
)

func init() { hivebot.Main = hivebotcmd.Main }
