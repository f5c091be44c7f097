// Package elo turns game results into the numbers engine authors act on: Elo differences with
// error bars, likelihood of superiority (LOS), normalized Elo, sequential probability ratio
// tests (SPRT) and maximum-likelihood ratings for many players.
//
// # Counts
//
// A match between two engines is summarised from the first engine's point of view either as
// trinomial counts ([WDL]: wins, draws, losses, one game at a time) or, when openings are
// played as colour-swapped game pairs, as pentanomial counts ([Pentanomial]: how many pairs
// scored 0, ½, 1, 1½ or 2 points). [PairCounts] keeps the two ways of scoring one point in a
// pair (a win and a loss, or two draws) apart, which the WL/DD ratio needs. The pentanomial
// model is preferred: the two games of a pair share an opening and are correlated, and pair
// scores are independent where single games are not.
//
// # Elo and error bars
//
// Elo(s) = -400·log10(1/s - 1) maps a mean score s to the logistic Elo scale. The 95% interval
// is the image of s ± z·SE, with SE the standard error of the mean game score (trinomial) or
// mean pair score (pentanomial), z = Φ⁻¹(0.975); the reported margin is half its width, and
// LOS = Φ((s-½)/SE). These are the formulas of fastchess (EloWDL, EloPentanomial) and of
// fishtest's get_elo. Normalized Elo (Van den Bergh, "Comments on Normalized Elo",
// normalized_elo_practical.pdf) divides the score excess by the per-game standard deviation
// instead: nElo = (800/ln 10)·(s-½)/σ. [CutechessEstimate] and [OpenBenchEstimate] reproduce
// the variants those tools print, and [FishtestNormalizedElo] fishtest's delta-method interval
// for normalized Elo.
//
// # SPRT
//
// [SPRT] is the generalized SPRT of fishtest, fastchess and OpenBench: the log-likelihood
// ratio of the empirical multinomial distribution under the maximum-likelihood distributions
// constrained to H0 and H1 (Van den Bergh, Proposition 1.1 and section 4.1 of the paper above),
// with zero counts regularised to 0.001. The Logistic model constrains the expected score to
// L(elo); the Normalized model constrains t = (μ-½)/σ to elo/(800/ln 10) per game. The BayesElo
// models (Cutechess, Bayesian, BayesEloLegacy) are trinomial only and reproduce cutechess-cli,
// fastchess's model=bayesian and fishtest's LLRlegacy respectively. Bounds are Wald's:
// ln(β/(1-α)) and ln((1-β)/α).
//
// # A capped SPRT
//
// A test capped at a number of game pairs decides at its cap by a final threshold on the LLR
// ([SPRT.Conclude]): H1 at or above it, H0 below. [SPRT.Truncate] chooses the threshold, for
// the pairs' distribution a run has seen, so that both error rates are as near their design
// as the cap allows, and says what they are: it plays the LLR pair by pair to the cap, at Elo0
// and at Elo1, on a grid of LLRs between the bounds. [SPRT.CapFor] finds the shortest cap that
// keeps both rates within a tolerance of their design. A test may instead end inconclusive at
// its cap ([SPRT] InconclusiveAtCap), as a plain SPRT does.
//
// # Ratings
//
// [Ratings] fits a Bradley–Terry model on the Elo scale to the games of any number of players
// by maximum likelihood, counting a draw as half a win and half a loss, with an optional
// first-player (White) advantage: P(White scores) = L(R_white + A - R_black). This is what Ordo
// does with its plain-Elo scale, and unlike the "score against the field" Elo that fastchess and
// cutechess print for tournaments it does not compress or inflate the spread. Standard errors
// come from the inverse of the observed information matrix, and the LOS matrix from the
// resulting normal approximation of each rating difference.
//
// The formulas, and the test vectors that check this package, are collected in the
// repository's docs/reference/STATISTICS.md.
package elo
