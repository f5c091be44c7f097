package results

// AssumedDrawRatio is the share of drawn games an SPRT's cost is estimated with before a run
// has played any: about what hivebot draws against itself (one game in ten; on a clock two
// pairs in five are won or lost twice). arbiter sprt-calc -draw-ratio sets another.
const AssumedDrawRatio = 0.1

// AssumedShape names the pair distribution of AssumedDrawRatio, as render.ExpectedLength says it.
const AssumedShape = "if 10 % of games are drawn"
