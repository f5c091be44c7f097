package needsbroken

import (
	"testing"

	"canned/broken"
)

func TestAnswer(t *testing.T) { broken.Answer() }
