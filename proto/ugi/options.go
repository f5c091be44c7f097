package ugi

import (
	"context"
	"fmt"
)

// SetOption changes one of the engine's options between games ("setoption name N value V",
// then isready), so that a tune need not restart the engine to try other values.
func (p *Player) SetOption(ctx context.Context, name, value string) error {
	if err := p.engine.Sync(ctx, fmt.Sprintf("setoption name %s value %s", name, value)); err != nil {
		return fmt.Errorf("ugi: %s: setting option %s=%s: %w", p.name, name, value, err)
	}
	return nil
}
