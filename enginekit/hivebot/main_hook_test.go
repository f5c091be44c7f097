package hivebot_test

import (
	"hivearbiter/cmd/hivebot/hivebotcmd"
	"hivearbiter/enginekit/hivebot"
)

func init() { hivebot.Main = hivebotcmd.Main }
