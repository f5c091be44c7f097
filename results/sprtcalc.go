package results

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"hivearbiter/elo"
)

// WriteSPRTCalc writes what arbiter sprt-calc computes from counts: the Elo estimate, the
// LOS and draw ratio, the counts, and the test's LLR, bounds and decision. Give either pair
// counts (ptnml) or game counts (wdl). It returns the test's decision, which the command's exit
// code reports.
func WriteSPRTCalc(w io.Writer, test elo.SPRT, ptnml *elo.Pentanomial, wdl *elo.WDL) (elo.Decision, error) {
	b := bufio.NewWriter(w)
	var llr float64
	if ptnml != nil {
		llr = test.LLR(*ptnml)
		est := elo.PentanomialEstimate(*ptnml)
		fmt.Fprintln(b, EloLine(est, ptnml.Games()))
		pairsRatio := fmt.Sprintf("%.2f", ptnml.PairsRatio())
		if math.IsInf(ptnml.PairsRatio(), 1) {
			pairsRatio = "inf" // as the result block writes it
		}
		fmt.Fprintf(b, "LOS: %.2f %%, DrawRatio: %.2f %%, PairsRatio: %s\n", 100*est.LOS, 100*ptnml.DrawRatio(), pairsRatio)
		fmt.Fprintf(b, "Pairs: %d, Points: %.1f (%.2f %%)\n", ptnml.Pairs(), ptnml.Points(), 100*ptnml.Score())
		fmt.Fprintf(b, "Ptnml(0-2): [%d, %d, %d, %d, %d]\n", ptnml[0], ptnml[1], ptnml[2], ptnml[3], ptnml[4])
	} else {
		llr = test.LLRTrinomial(*wdl)
		est := elo.TrinomialEstimate(*wdl)
		fmt.Fprintln(b, EloLine(est, wdl.Games()))
		fmt.Fprintf(b, "LOS: %.2f %%, DrawRatio: %.2f %%\n", 100*est.LOS, 100*wdl.DrawRatio())
		fmt.Fprintf(b, "Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n",
			wdl.Games(), wdl.Wins, wdl.Losses, wdl.Draws, wdl.Points(), 100*wdl.Score())
	}
	lower, upper := test.Bounds()
	fmt.Fprintf(b, "LLR: %.4f (%.1f%%) (%.4f, %.4f) [%.2f, %.2f] %s\n", llr, 100*test.Progress(llr), lower, upper, test.Elo0, test.Elo1, test.Model)
	decision := test.Status(llr)
	switch decision {
	case elo.AcceptH1:
		fmt.Fprintln(b, "H1 accepted")
	case elo.AcceptH0:
		fmt.Fprintln(b, "H0 accepted")
	default:
		fmt.Fprintln(b, "no decision yet")
	}
	return decision, b.Flush()
}

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
