// Package viewerbridge is "arbiter serve": the arbiter as a UHP engine toward a viewer such as
// MzingaViewer, with two player engines behind it. The viewer's game is the referee's; every
// move is refereed, sent to both players and cross-checked through arbiter.Game, exactly as
// in a match, and every game that ends is recorded as a match game is.
package viewerbridge
