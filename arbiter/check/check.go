package check

import (
	"context"
	"fmt"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
)

// Run runs the compliance check of the engine's protocol: its own suite (compliance.Suite),
// or PlaySuite with the rows it declares (compliance.PlayChecked). err is set when the
// protocol is unknown or has no check, and when the engine could not be started at all (the
// results then say so too).
func Run(ctx context.Context, e driver.EngineConfig, opts compliance.Options) ([]compliance.Result, error) {
	p, err := driver.Lookup(e.ProtocolName())
	if err != nil {
		return nil, err
	}
	switch c := p.(type) {
	case compliance.Suite:
		return c.RunChecks(ctx, e, opts)
	case compliance.PlayChecked:
		return PlaySuite(ctx, p, e, opts, c.PlayRows(e))
	}
	return nil, &driver.ConfigError{Msg: fmt.Sprintf("protocol %q has no compliance check", e.ProtocolName())}
}
