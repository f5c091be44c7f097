package uhp

import (
	"context"
	"fmt"
)

// SetOption changes one of the engine's options between games ("options set NAME VALUE"), so
// that a tune need not restart the engine to try other values.
func (p *Player) SetOption(ctx context.Context, name, value string) error {
	if _, err := p.engine.SetOption(ctx, name, value); err != nil {
		return fmt.Errorf("uhp: setting option %s=%s: %w", name, value, err)
	}
	return nil
}
