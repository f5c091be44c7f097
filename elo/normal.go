package elo

import "math"

// normalCDF returns Φ(x), the standard normal distribution function.
func normalCDF(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}

// normalCDFRatio returns Φ(x/s) for s ≥ 0, taking the limit when s is 0: 1 for x > 0, 0 for
// x < 0 and 0.5 for x = 0.
func normalCDFRatio(x, s float64) float64 {
	if s == 0 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return 0
		}
		return 0.5
	}
	return normalCDF(x / s)
}

// winitzkiErfInv is the approximation of erf⁻¹ that cutechess uses, with its constants
// (including its π truncated to 13 decimals), so that its printed margins can be reproduced.
func winitzkiErfInv(x float64) float64 {
	const pi = 3.1415926535897
	a := 8 * (pi - 3) / (3 * pi * (4 - pi))
	y := math.Log(1 - x*x)
	z := 2/(pi*a) + y/2
	r := math.Sqrt(math.Sqrt(z*z-y/a) - z)
	if x < 0 {
		return -r
	}
	return r
}

// studentTQuantile returns the p-quantile of Student's t distribution with df > 0 degrees of
// freedom, by bisection on its distribution function.
func studentTQuantile(p, df float64) float64 {
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -studentTQuantile(1-p, df)
	}
	lo, hi := 0.0, 1.0
	for studentTCDF(hi, df) < p {
		lo, hi = hi, 2*hi
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if studentTCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// studentTCDF returns P(T ≤ t) for Student's t distribution with df degrees of freedom.
func studentTCDF(t, df float64) float64 {
	tail := 0.5 * regularizedIncompleteBeta(df/2, 0.5, df/(df+t*t))
	if t > 0 {
		return 1 - tail
	}
	return tail
}

// regularizedIncompleteBeta returns I_x(a, b), evaluated with the continued fraction of
// Numerical Recipes (betacf, modified Lentz's method).
func regularizedIncompleteBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaContinuedFraction(b, a, 1-x)/b
	}
	return front * betaContinuedFraction(a, b, x) / a
}

func betaContinuedFraction(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 1000; m++ {
		fm := float64(m)
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		for range 2 {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
			num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		}
		if math.Abs(d*c-1) < 1e-16 {
			break
		}
	}
	return h
}
