package results

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseCounts reads n comma-separated non-negative whole numbers, such as the pentanomial
// "LL,LD,WL+DD,WD,WW" or the trinomial "W,D,L".
func ParseCounts(s string, n int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %d comma-separated counts, got %d", n, len(parts))
	}
	counts := make([]int, n)
	for i, p := range parts {
		c, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || c < 0 {
			return nil, fmt.Errorf("%q is not a count", p)
		}
		counts[i] = c
	}
	return counts, nil
}
