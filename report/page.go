package report

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
)

var (
	//go:embed assets/uPlot.iife.min.js
	uPlotJS string
	//go:embed assets/uPlot.min.css
	uPlotCSS string
	//go:embed assets/uPlot.LICENSE
	uPlotLicense string
	//go:embed assets/page.js
	pageJS string
	//go:embed assets/page.css
	pageCSS string
)

// compressAbove is the size of JSON above which a report embeds its data gzipped (and base64
// encoded): the moves of thousands of games compress about fivefold, and the browser
// decompresses them natively (DecompressionStream) in a few milliseconds.
const compressAbove = 256 << 10

// page writes the HTML page around a data script. mode is "report" or "live".
func page(w io.Writer, title, mode, dataScript string) error {
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(title))
	// Every page carries a copy of uPlot, so it carries uPlot's license too.
	b.WriteString("<!-- The charts are drawn by uPlot, https://github.com/leeoniya/uPlot:\n\n")
	b.WriteString(uPlotLicense)
	b.WriteString("-->\n<style>\n")
	b.WriteString(uPlotCSS)
	b.WriteString("\n")
	b.WriteString(pageCSS)
	b.WriteString("</style>\n</head>\n")
	fmt.Fprintf(&b, "<body data-mode=\"%s\">\n", mode)
	fmt.Fprintf(&b, "<header><h1 id=\"title\">%s</h1><div class=\"sub\" id=\"sub\"></div></header>\n<main id=\"app\"></main>\n", html.EscapeString(title))
	b.WriteString("<script>\n")
	b.WriteString(uPlotJS)
	b.WriteString("\n</script>\n")
	b.WriteString(dataScript)
	b.WriteString("<script>\n")
	b.WriteString(pageJS)
	b.WriteString("</script>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// dataJSON encodes a page's data. encoding/json escapes <, > and &, so the text is safe
// inside a script element.
func dataJSON(d any) ([]byte, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("report: encoding the page data: %w", err)
	}
	return b, nil
}

// Write writes a self-contained HTML report of the data: it opens offline, in any browser.
func Write(w io.Writer, d *Data) error {
	data, err := dataJSON(d)
	if err != nil {
		return err
	}
	var script string
	if len(data) <= compressAbove {
		script = "<script id=\"data\" type=\"application/json\">" + string(data) + "</script>\n"
	} else {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			return fmt.Errorf("report: compressing the page data: %w", err)
		}
		script = "<script id=\"data\" type=\"application/gzip+base64\">\n" + base64.StdEncoding.EncodeToString(z.Bytes()) + "\n</script>\n"
	}
	return page(w, d.Title, "report", script)
}

// WriteFile writes the report to path atomically: a browser reloading it while a match
// rewrites it never sees half a page.
func WriteFile(path string, d *Data) error {
	return writeAtomic(path, func(w io.Writer) error { return Write(w, d) })
}

// WriteTuneFile writes a tune's page to path atomically.
func WriteTuneFile(path string, d *TuneData) error {
	return writeAtomic(path, func(w io.Writer) error { return WriteTune(w, d) })
}

// writeAtomic writes a file through a temporary one, renamed into place when complete.
func writeAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("report: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("report: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
