package site

import (
	"embed"
	"html/template"
)

//go:embed pages.html
var templateFS embed.FS

// pages are the site's templates; html/template escapes every name, report and URL in them.
var pages = template.Must(template.New("").Funcs(template.FuncMap{
	// shift moves a chart coordinate by a fixed offset: labels beside their points.
	"shift": func(by, x float64) float64 { return x + by },
}).ParseFS(templateFS, "pages.html"))
