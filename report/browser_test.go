package report

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The browser test renders index.html with Debian's chromium. It skips
// where chromium is not installed, unless requireChromiumEnv is set (CI
// sets it, so that there the test cannot skip silently). With
// screenshotDirEnv set, the screenshots are copied there to look at.
const (
	requireChromiumEnv = "FEATMAP_REQUIRE_CHROMIUM"
	screenshotDirEnv   = "FEATMAP_SCREENSHOT_DIR"
)

// examplePage is the committed example report.
const examplePage = "../docs/reports/compare-chi2-8bit/index.html"

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(requireChromiumEnv) != "" {
		t.Fatalf("chromium is not installed but %s is set: the browser check must run", requireChromiumEnv)
	}
	t.Skipf("chromium not installed (apt-get install chromium; set %s to make this an error)", requireChromiumEnv)
	return ""
}

// runChromium runs headless chromium, offline and with a fresh profile,
// and returns its standard output.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, tail(stderr.String(), 2000))
	}
	return out.Bytes()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestBrowser renders a report's index.html — a fresh one and the
// committed example — in headless chromium and checks that the page loads
// with its tables and every plot: each SVG holds drawn paths and text, the
// heat map's image is there, and the screenshot shows the plots' colours.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	if err := Write(dir, testInput()); err != nil {
		t.Fatal(err)
	}
	t.Run("fresh", func(t *testing.T) { checkPage(t, bin, filepath.Join(dir, "index.html"), 2) })
	t.Run("example", func(t *testing.T) {
		p, err := filepath.Abs(examplePage)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("the committed example report is missing: %v", err)
		}
		checkPage(t, bin, p, 5)
	})
}

// checkPage checks the page at path (absolute) in chromium; methods is the
// number of methods it compares.
func checkPage(t *testing.T, bin, path string, methods int) {
	url := "file://" + filepath.ToSlash(path)
	dom := string(runChromium(t, bin, "--dump-dom", url))
	if !strings.Contains(dom, "</main>") {
		t.Fatalf("the page did not load: %s", tail(dom, 500))
	}
	if n := strings.Count(dom, "<table>"); n != 3 {
		t.Errorf("%d tables, want 3", n)
	}
	for _, bad := range []string{"<img", "<script", "<iframe"} {
		if strings.Contains(dom, bad) {
			t.Errorf("the page has %s", bad)
		}
	}
	svgs := strings.Split(dom, "<svg")[1:]
	if len(svgs) != 4 {
		t.Fatalf("%d plots, want 4 (L∞ and RMS vs D, signature error, kernel error)", len(svgs))
	}
	images := 0
	for i, s := range svgs {
		s = s[:strings.Index(s, "</svg>")]
		if strings.Count(s, "<path") < 10 || strings.Count(s, "<text") < 5 {
			t.Errorf("plot %d is empty: %d paths, %d texts", i+1, strings.Count(s, "<path"), strings.Count(s, "<text"))
		}
		images += strings.Count(s, `xlink:href="data:image/png;base64,`)
	}
	if images != 2 {
		t.Errorf("%d embedded images, want 2 (the heat map and its colour bar)", images)
	}

	shot := filepath.Join(t.TempDir(), "page.png")
	runChromium(t, bin, "--window-size=1280,4200", "--screenshot="+shot, url)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if d := os.Getenv(screenshotDirEnv); d != "" {
		if b, err := os.ReadFile(shot); err == nil {
			os.WriteFile(filepath.Join(d, strings.ReplaceAll(t.Name(), "/", "-")+".png"), b, 0o644)
		}
	}
	// Every method's colour is drawn (the plots rendered), and the heat map
	// fills a large block with saturated colour (its image is not broken).
	found := make([]int, methods)
	saturated := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			if max(r, g, b)-min(r, g, b) > 40 {
				saturated++
			}
			for i := range found {
				c := methodColors[i%len(methodColors)]
				if near(r, c.R) && near(g, c.G) && near(b, c.B) {
					found[i]++
				}
			}
		}
	}
	for i, n := range found {
		if n < 50 {
			t.Errorf("method %d's colour appears in %d pixels: its curves were not drawn", i+1, n)
		}
	}
	if saturated < 60000 {
		t.Errorf("only %d saturated pixels: the kernel-error heat map did not render", saturated)
	}
}

func near(a uint32, b uint8) bool {
	d := int(a) - int(b)
	return d > -12 && d < 12
}
