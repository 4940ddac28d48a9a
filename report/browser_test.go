package report

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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

// long adds the committed example report to TestBrowser: the same checks
// on a second page, as long again in chromium. CI passes it (.ci/run: go
// test ./report -run TestBrowser -long).
var long = flag.Bool("long", false, "TestBrowser: also render the committed example report (CI passes it)")

// TestBrowser renders a report's index.html — a fresh one, and with -long
// the committed example — in headless chromium and checks that the page
// loads with its tables and every plot: each SVG holds drawn paths and
// text, the heat map's image is there, and the screenshot shows the
// plots' colours; at 360 and 1600 px the page does not scroll sideways,
// and the plots print numbers as the tables do.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages in headless chromium (seconds); skipped with -short")
	}
	bin := chromium(t)
	dir := t.TempDir()
	if err := Write(dir, testInput()); err != nil {
		t.Fatal(err)
	}
	t.Run("fresh", func(t *testing.T) { checkPage(t, bin, filepath.Join(dir, "index.html"), 2) })
	t.Run("example", func(t *testing.T) {
		if !*long {
			t.Skip("the committed example report: with -long (CI passes it)")
		}
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
	checkNumberLabels(t, svgs)
	checkWidths(t, bin, path)

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

// pageWidths are the viewport widths the page must read well at: a small
// phone and a wide desktop window.
var pageWidths = []int{360, 1600}

// probePage shows a copy of the page in an iframe w px wide (headless
// chromium's window is at least 500 px wide, so the viewport is set this
// way) and, once it has loaded, writes the framed page's scroll width and
// viewport width into its own DOM, which --dump-dom then prints. The page
// itself stays script-free; reading the frame needs
// --allow-file-access-from-files.
const probePage = `<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="page.html" style="border:0;display:block;width:%dpx;height:%dpx"></iframe>
<script>window.addEventListener("load", function () {
var f = document.getElementById("f");
document.body.setAttribute("data-probe", f.contentDocument.documentElement.scrollWidth + " " + f.contentWindow.innerWidth);
});</script></body></html>`

// writeProbe writes a copy of the page at path and a probe page framing it
// at width px (height tall) into a temporary directory, and returns the
// probe's URL.
func writeProbe(t *testing.T, path string, width, height int) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "page.html"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(probe, []byte(fmt.Sprintf(probePage, width, height)), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(probe)
}

// pageScrollWidth loads the page at path in a viewport width px wide and
// returns document.documentElement.scrollWidth and window.innerWidth.
func pageScrollWidth(t *testing.T, bin, path string, width int) (scroll, inner int) {
	t.Helper()
	url := writeProbe(t, path, width, 900)
	dom := string(runChromium(t, bin, "--allow-file-access-from-files", fmt.Sprintf("--window-size=%d,1000", max(width, 500)+20), "--dump-dom", url))
	m := regexp.MustCompile(`data-probe="(\d+) (\d+)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe did not run at %d px: %s", width, tail(dom, 300))
	}
	scroll, _ = strconv.Atoi(m[1])
	inner, _ = strconv.Atoi(m[2])
	return scroll, inner
}

// checkWidths checks that the page at path does not scroll sideways at any
// of pageWidths (wide tables scroll inside their own box, plots shrink),
// and saves a screenshot at each width to screenshotDirEnv when set.
func checkWidths(t *testing.T, bin, path string) {
	for _, w := range pageWidths {
		scroll, inner := pageScrollWidth(t, bin, path, w)
		t.Logf("%d px: scrollWidth %d, innerWidth %d", w, scroll, inner)
		if inner != w {
			t.Errorf("viewport %d px wide, asked for %d", inner, w)
		}
		if scroll > inner {
			t.Errorf("at %d px the page scrolls sideways: scrollWidth %d > innerWidth %d", w, scroll, inner)
		}
		if d := os.Getenv(screenshotDirEnv); d != "" {
			shot := filepath.Join(d, fmt.Sprintf("%s-%dpx.png", strings.ReplaceAll(t.Name(), "/", "-"), w))
			runChromium(t, bin, "--allow-file-access-from-files", fmt.Sprintf("--window-size=%d,4200", w),
				"--screenshot="+shot, writeProbe(t, path, w, 4200))
		}
	}
}

// svgTexts returns the text labels of an SVG in order.
func svgTexts(svg string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?s)<text[^>]*>(.*?)</text>`).FindAllStringSubmatch(svg, -1) {
		out = append(out, html.UnescapeString(strings.TrimSpace(m[1])))
	}
	return out
}

// checkNumberLabels checks that no plot prints a number in Go's exponent
// style (1e-05) and that the colour bar of the kernel-error map labels its
// ticks as the tables print numbers (tableNumber: 7.50×10⁻⁵, 0.0123).
func checkNumberLabels(t *testing.T, svgs []string) {
	expo := regexp.MustCompile(`\de[-+]?\d`)
	for i, s := range svgs {
		for _, l := range svgTexts(s) {
			if expo.MatchString(l) {
				t.Errorf("plot %d prints %q in exponent style", i+1, l)
			}
		}
	}
	// The colour bar's labels are the last texts of the kernel-error map
	// after its own axes: they are the ones with a sign or ×10, or that
	// parse as a number not on the input axes; check every numeric label
	// round-trips through tableNumber.
	heat := svgTexts(svgs[len(svgs)-1])
	bar := 0
	for _, l := range heat {
		v, err := strconv.ParseFloat(strings.NewReplacer("−", "-", "×10", "e").Replace(fromSuperscript(l)), 64)
		if err != nil {
			continue
		}
		if got := tableNumber(v); got != l {
			t.Errorf("kernel-error plot label %q, the tables would print %q", l, got)
		}
		if strings.HasPrefix(l, "−") {
			bar++
		}
	}
	if bar == 0 {
		t.Errorf("no negative colour bar label among %q", heat)
	}
}

// fromSuperscript turns superscript digits and minus into plain ones.
func fromSuperscript(s string) string {
	return strings.NewReplacer("⁻", "-", "⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4",
		"⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9").Replace(s)
}
