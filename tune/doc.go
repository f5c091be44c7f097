// Package tune tunes an engine's options with SPSA (simultaneous perturbation stochastic
// approximation), as fishtest and OpenBench do for chess engines: each iteration perturbs every
// parameter by +-c_k at once, plays one game pair (one opening, colours swapped) between the
// engine with theta+delta and with theta-delta, and steps theta towards the side that scored
// better: theta_i += a_k/c_k * (wins - losses of the plus side) * flip_i, clamped to the range.
//
// The gain schedules are fishtest's, derived from each parameter's c_end and r_end at the last
// iteration N: c_k = c/k^gamma with c = c_end*N^gamma, and a_k = a/(A+k)^alpha with
// a = r_end*c_end^2*(A+N)^alpha, so that c_N = c_end and a_N/c_N^2 = r_end. Defaults are
// alpha = 0.602, gamma = 0.101 and A = N/10.
//
// Where it differs from fishtest and OpenBench:
//   - An iteration is one game pair. fishtest and OpenBench hand a worker a batch of pairs
//     with one perturbation and apply the batch's summed result at once; here every pair is
//     its own update, applied when the pair finishes (in finishing order under concurrency,
//     each with the k it was handed out with, as fishtest does).
//   - The flips and the rounding of iteration k are drawn from a generator seeded by the run's
//     seed and k alone, not from a shared stream, so that a resumed tune draws the same
//     perturbations as one that was never stopped.
//   - Integer parameters are rounded stochastically when sent (fishtest and OpenBench round to
//     nearest): a value of 3.3 is sent as 4 three times in ten, so small steps are not lost.
//   - Every pair is written to a JSON Lines file with theta before and after (a results.Log,
//     locked against a second tune); running again with the same file resumes where it stopped. At concurrency 1 (and engines that play
//     alike for alike values) a resumed tune ends exactly where an unstopped one would; at
//     more, pairs finish in no fixed order, and those under way at the stop are played again
//     around theta as it is at the resume.
//
// A tune can be played elsewhere than where its values are held: a pool's server opens its
// records as a Session, which draws each pair's perturbation when the pair is handed out and
// applies the results in the order they arrive, and a pool's worker plays the pairs it is handed
// with Pairs, as Run plays its own.
//
// The engines are started with the tuned options among their start-up options, and given
// each pair's values between games (UHP "options set", UGI "setoption"); a player that cannot
// change its options while it runs (see OptionSetter) is restarted with them instead. A
// protocol without options (the one-engine gamestring protocol, the Hive API) is refused.
package tune
