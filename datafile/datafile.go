// Package datafile reads the data file a spec names (its data section):
// CSV, TSV or whitespace-separated text, or NumPy's .npy, each optionally
// gzip-compressed, streamed and checked row by row (numbers, finite,
// inside the problem's domain, one column count), at most a section's
// MaxRows kept by a seeded reservoir sample, and split by a seeded shuffle
// into rows to fit and held-out rows: an fmap.Data. Its errors name the
// file, the line and the column (DataError).
package datafile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/atomicfile"
)

// Section is what a spec's data section asks to read: a file of samples
// of the inputs, one row per sample.
type Section struct {
	// File is the path as the spec gives it, relative to the spec's
	// directory unless absolute.
	File string
	// First and Last are the first and last feature columns (0-based,
	// inclusive); Last < 0 means every column but the label's.
	First, Last int
	// Label is the label column, or -1.
	Label int
	// Header is true (a header line), false (none) or nil (detected: a
	// first line with a field that is not a number).
	Header *bool
	// MaxRows caps the rows kept: beyond it a seeded reservoir sample.
	MaxRows int
	// Holdout is the fraction of the rows kept that are held out, in
	// [0, MaxHoldout] (a spec's default DefaultHoldout; HeldRows at most,
	// and at least one row when Holdout > 0): 0 holds none out, and every
	// row is a row to fit.
	Holdout float64
	// HoldoutLine is data.holdout's line in the spec (0 when not given).
	HoldoutLine int
	// Line is the data section's line in the spec.
	Line int
}

// Data limits: the default row cap, the most bytes the rows kept may take
// in memory (RowBytes each), the held-out rows every design is verified
// on, and the longest line read.
const (
	DefaultMaxRows = 100_000
	MaxKeptBytes   = 768 << 20
	HeldRows       = 2000
	maxLine        = 1 << 20
)

// DefaultHoldout is the fraction of the rows held out by default (a
// fifth), and MaxHoldout the largest a data section may ask for.
const (
	DefaultHoldout = 0.2
	MaxHoldout     = 0.5
)

// HeldCount is the number of the n rows kept that a holdout fraction h
// holds out: ⌊n·h⌋, at least 1 when h > 0, at most HeldRows. For h =
// DefaultHoldout it is n/5 (0.2's float64 is a little above 1/5, so the
// product never rounds below n/5).
func HeldCount(n int, h float64) int {
	if !(h > 0) {
		return 0
	}
	return min(HeldRows, max(1, int(float64(n)*h)))
}

// RowBytes is the memory one kept row of n feature columns takes: its n
// values (in blocks of many rows), its label (in a list that append may
// hold twice while it grows) and, once the file is read, its slice header.
func RowBytes(n int) int { return 8*n + 2*8 + 24 }

// keptLimit is MaxKeptBytes, lowered by the package's tests that reach it.
var keptLimit = MaxKeptBytes

// rowStore holds the kept rows' values, n each, in blocks of many rows:
// no allocation and no pointer per row while a file is read (a row of one
// value allocated alone took about 100 bytes with its header, label and
// the allocator's rounding, and the collector scanned every one).
type rowStore struct {
	n, perBlock int
	blocks      [][]float64
	len         int
}

// newRowStore returns a store of rows of n values.
func newRowStore(n int) *rowStore {
	return &rowStore{n: n, perBlock: max(1, (1<<17)/n)}
}

// row returns row i's values.
func (s *rowStore) row(i int) []float64 {
	b, o := s.blocks[i/s.perBlock], (i%s.perBlock)*s.n
	return b[o : o+s.n : o+s.n]
}

// add appends a copy of x.
func (s *rowStore) add(x []float64) {
	if s.len%s.perBlock == 0 {
		s.blocks = append(s.blocks, make([]float64, s.perBlock*s.n))
	}
	s.len++
	copy(s.row(s.len-1), x)
}

// rows returns the rows' slices.
func (s *rowStore) rows() [][]float64 {
	out := make([][]float64, s.len)
	for i := range out {
		out[i] = s.row(i)
	}
	return out
}

// DefaultProgressRows is how many data rows pass between progress
// messages (Options.ProgressRows), and CheckRows how many between two
// checks of the context.
const (
	DefaultProgressRows = 1 << 18
	CheckRows           = 1024
)

// seed seeds the reservoir sample and the fit/held-out split.
const seed = 1

// Options are how Read reports on a long read.
type Options struct {
	// Progress, if not nil, is told every ProgressRows rows how many rows
	// have been read, the share of the file behind them and how many are
	// kept.
	Progress func(string)
	// ProgressRows is the rows between two progress messages (0:
	// DefaultProgressRows).
	ProgressRows int
	// KeepOutside keeps the rows with a value outside the problem's domain
	// (or not an integer on an integer domain) instead of refusing the
	// file at the first (featmap eval measures a map on such rows); a
	// value where the kernel is not defined (fmap.Kernel.Undefined) is
	// still refused.
	KeepOutside bool
}

// Result is a data file read: its rows, whether its first line was a
// header (given or detected), and warnings about it (a first line taken as
// a header though some of its fields are numbers), each a message naming
// the file, line and column.
type Result struct {
	Data     *fmap.Data
	Header   bool
	Warnings []string
	// Labels sums up the label column over every data row of the file
	// (nil without a label column), for deciding whether the labels are
	// classes or numbers.
	Labels *Labels
}

// Labels sums up a data file's labels, every row read (not only the rows
// kept): how many are integers and how many are not, the first row of
// each kind, and the distinct integer values (counted up to
// MaxDistinct + 1).
type Labels struct {
	Integers, Others int
	// FirstInteger and FirstOther are the first row of each kind (zero
	// Line when there is none).
	FirstInteger, FirstOther LabelAt
	// Distinct is the number of distinct integer labels, at most
	// MaxDistinct + 1 (more are not counted).
	Distinct int
	// Largest is the label of the largest magnitude (the first of equals).
	Largest LabelAt
	// File and Column are the data file (as messages name it) and the
	// label column.
	File   string
	Column int
	seen   map[float64]bool
}

// CheckNumbers returns a *DataError at the label of the largest magnitude
// when it lies beyond ±fmap.MaxNumberLabel, for labels taken as numbers;
// nil otherwise.
func (l *Labels) CheckNumbers() error {
	if v := l.Largest.Value; math.Abs(v) > fmap.MaxNumberLabel {
		return &DataError{File: l.File, Line: l.Largest.Line, Column: l.Column,
			Msg: fmt.Sprintf("label %v is beyond ±%g, the labels a regression takes as numbers: their squared errors overflow float64; divide the labels by a power of ten", v, fmap.MaxNumberLabel)}
	}
	return nil
}

// LabelAt is one label and the line of the file it is on.
type LabelAt struct {
	Line  int
	Value float64
}

// MaxDistinct is the most distinct integer labels Labels counts exactly.
const MaxDistinct = 4096

// add counts the label v of line.
func (l *Labels) add(line int, v float64) {
	if l.Largest.Line == 0 || math.Abs(v) > math.Abs(l.Largest.Value) {
		l.Largest = LabelAt{line, v}
	}
	// Beyond 2⁵³ every float64 is an integer: such labels count as
	// numbers (plan.MaxClassLabel).
	if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		if l.Others == 0 {
			l.FirstOther = LabelAt{line, v}
		}
		l.Others++
		return
	}
	if l.Integers == 0 {
		l.FirstInteger = LabelAt{line, v}
	}
	l.Integers++
	if l.Distinct <= MaxDistinct && !l.seen[v] {
		l.seen[v] = true
		l.Distinct++
	}
}

// DataError is a problem with a data file: its path (as messages name it),
// the 1-based line and 0-based column when there is one.
type DataError struct {
	File   string
	Line   int
	Column int // -1 when the error is not about one column
	Msg    string
	Err    error
	// Key is the key of the data section (or the problem) that the file's
	// columns do not fit — data.label_column, data.columns or domain.dims
	// — and Width the file's number of columns, for a caller that names
	// them in its own terms (featmap eval); "" for every other error.
	Key   string
	Width int
}

// Error returns "file:line: column c: message". A file name with bytes
// that are not printable (a NUL, an escape sequence) is quoted, so that a
// message never writes them raw to a terminal.
func (e *DataError) Error() string {
	s := printable(e.File)
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
	}
	if e.Column >= 0 {
		s += fmt.Sprintf(": column %d", e.Column)
	}
	return s + ": " + e.Msg
}

// Unwrap returns the underlying error.
func (e *DataError) Unwrap() error { return e.Err }

// printable is s, or s quoted as a Go string when it has a rune that is
// not printable.
func printable(s string) string {
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// reader reads the rows of a data file against a spec's data section and
// problem.
type reader struct {
	d        *Section
	p        *fmap.Problem
	sep      func([]string, string) []string
	width    int // columns per row, from the first data row
	first    int
	last     int
	header   bool
	additive bool
	// keepOutside is Options.KeepOutside.
	keepOutside bool
	// warn, if set, is a warning about the first line (its file and line
	// are the caller's to add).
	warn *DataError
	// guess, when the first line was taken as a header because one of
	// its fields is not a number (not because data.header said so), is
	// that field; mixed says some of its other fields are numbers (a data
	// row with a typo, perhaps): errors about the rows then name the guess.
	guess string
	mixed bool
}

// guessed is what an error after the first line adds when that line was
// taken as a header by a guess (always, or only when it held numbers too):
// " (line L was taken as a header, because "x" is not a number;
// data.header: false reads it as data)", or "".
func (r *reader) guessed(line int, always bool) string {
	if r.guess == "" || !always && !r.mixed {
		return ""
	}
	return fmt.Sprintf(" (line %d was taken as a header, because %q is not a number; data.header: false reads it as data)", line, r.guess)
}

// Read reads the data file of section d of the spec at path spec (the
// file is relative to the spec's directory unless absolute; messages name
// the spec and the section's line) for problem p: every row checked
// (numbers, finite, inside p's domain, the same column count), at most
// d.MaxRows of them kept (a seeded reservoir sample beyond), split by a
// seeded shuffle into held-out rows (HeldCount: d.Holdout of them, at
// most HeldRows) and rows to fit. It tells o.Progress how far it is; it
// stops with ctx's error when ctx ends (checked every CheckRows rows). Its
// errors about the file are *DataError values.
func Read(ctx context.Context, spec string, d *Section, p *fmap.Problem, o Options) (*Result, error) {
	name := d.File
	if !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(spec), name)
	}
	every := o.ProgressRows
	if every <= 0 {
		every = DefaultProgressRows
	}
	res := &Result{}
	dataErr := func(line, col int, err error, format string, args ...any) error {
		return &DataError{File: name, Line: line, Column: col, Msg: fmt.Sprintf(format, args...), Err: err}
	}
	fi, err := os.Stat(name)
	if err != nil {
		// Which line named it, and from where a relative path is read.
		where := fmt.Sprintf("data.file, %s:%d", spec, d.Line)
		if !filepath.IsAbs(d.File) {
			where += ", relative to the spec's directory"
		}
		return nil, dataErr(0, -1, err, "%v (%s)", errors.Unwrap(err), where)
	}
	if !fi.Mode().IsRegular() {
		return nil, dataErr(0, -1, nil, "not a regular file (%s): featmap reads data only from regular files", atomicfile.Kind(fi.Mode()))
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, dataErr(0, -1, err, "%v", err)
	}
	defer f.Close()
	h := sha256.New()
	cr := &countingReader{r: f}
	br := bufio.NewReader(io.TeeReader(cr, h))
	var in io.Reader = br
	var gz *stickyReader
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, dataErr(0, -1, err, "gzip: %v", err)
		}
		defer z.Close()
		gz = &stickyReader{r: z}
		in = gz
	}
	base := strings.TrimSuffix(strings.ToLower(name), ".gz")
	r := &reader{d: d, p: p, additive: p.Kernel.Homogeneous() && p.InDim() == 1, keepOutside: o.KeepOutside}
	// next returns the fields of the next non-empty line (or .npy row) and
	// its number; nil fields at the end.
	var next func() ([]string, int, error)
	switch {
	case strings.HasSuffix(base, ".npy"):
		if d.Header != nil && *d.Header {
			return nil, dataErr(0, -1, nil, "data.header: a .npy file has no header line")
		}
		rows, err := npyRows(in)
		if err != nil {
			if gz != nil && gz.err != nil {
				// A cut or damaged gzip stream, not a damaged .npy.
				err = gzipError(gz.err)
			}
			return nil, dataErr(0, -1, err, "%v", err)
		}
		next = rows
	case strings.HasSuffix(base, ".csv"):
		r.sep = func(dst []string, l string) []string { return splitInto(dst, l, ',') }
	case strings.HasSuffix(base, ".tsv"):
		r.sep = func(dst []string, l string) []string { return splitInto(dst, l, '\t') }
	default:
		r.sep = fieldsInto
	}
	var seen int
	if next == nil {
		tr := newTextRows(in, r.sep, gz)
		// A file of mostly empty lines (which gzip shrinks to almost nothing)
		// reads for long with no row to report: every lineTick lines
		// the read reports and looks at ctx all the same.
		tr.tick = func(line int) error {
			if o.Progress != nil {
				o.Progress(fmt.Sprintf("data %s: %d lines read (%.0f%% of %d bytes), %d rows", d.File, line,
					100*float64(cr.n)/float64(max(1, fi.Size())), fi.Size(), seen))
			}
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("reading %s: %w", d.File, err)
			}
			return nil
		}
		next = tr.next
	}
	rng := rand.New(rand.NewPCG(seed, 0x64617461)) // "data"
	var store *rowStore
	var labels []float64
	if d.Label >= 0 {
		res.Labels = &Labels{File: name, Column: d.Label, seen: map[float64]bool{}}
	}
	var scratch []float64
	line, headerLine := 0, 0
	for {
		fields, l, err := next()
		line = l
		if err != nil {
			if gz != nil && gz.err != nil {
				err = gzipError(gz.err)
			}
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, err
			}
			return nil, dataErr(line, -1, err, "%v", err)
		}
		if fields == nil {
			break
		}
		if r.width == 0 {
			if err := r.start(fields); err != nil {
				var de *DataError
				if errors.As(err, &de) {
					de.File, de.Line = name, line
					return nil, de
				}
				return nil, dataErr(line, -1, nil, "%v", err)
			}
			if r.warn != nil {
				r.warn.File, r.warn.Line = name, line
				res.Warnings = append(res.Warnings, r.warn.Error())
			}
			if r.header {
				headerLine = line
				continue
			}
		}
		scratch = slices.Grow(scratch[:0], r.last-r.first+1)[:r.last-r.first+1]
		x, label, err := r.row(fields, scratch)
		if err != nil {
			var de *DataError
			if errors.As(err, &de) {
				de.File, de.Line = name, line
				de.Msg += r.guessed(headerLine, false)
				return nil, de
			}
			return nil, dataErr(line, -1, err, "%v", err)
		}
		seen++
		if res.Labels != nil {
			res.Labels.add(line, label)
		}
		if seen%CheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("reading %s: %w", d.File, err)
			}
		}
		if o.Progress != nil && seen%every == 0 {
			o.Progress(fmt.Sprintf("data %s: %d rows read (%.0f%% of %d bytes), %d kept", d.File, seen,
				100*float64(cr.n)/float64(max(1, fi.Size())), fi.Size(), min(seen, d.MaxRows)))
		}
		// Reservoir sampling (Algorithm R): every row is kept with
		// probability MaxRows/seen, by a seeded generator.
		if store == nil {
			store = newRowStore(len(x))
		}
		switch {
		case store.len < d.MaxRows:
			// The rows kept take at most MaxKeptBytes: checked as they
			// come, so that a data.max_rows above what a file holds
			// costs nothing.
			if b := RowBytes(len(x)); (store.len+1)*b > keptLimit {
				return nil, dataErr(line, -1, nil, "more than %.4g MiB of rows kept (%d rows of %d feature columns, %d bytes each): lower data.max_rows (%d, %s:%d) to at most %d",
					float64(keptLimit)/(1<<20), store.len+1, len(x), b, d.MaxRows, spec, d.Line, keptLimit/b)
			}
			store.add(x)
			labels = append(labels, label)
		default:
			// A kept row is overwritten in place: the store holds
			// MaxRows rows at most, whatever the file's length.
			if j := rng.IntN(seen); j < d.MaxRows {
				copy(store.row(j), x)
				labels[j] = label
			}
		}
	}
	if _, err := io.Copy(io.Discard, br); err != nil { // the rest of the file, for the hash
		return nil, dataErr(line, -1, err, "%v", err)
	}
	if seen < 2 {
		return nil, dataErr(0, -1, nil, "%s: need at least 2%s", counted(seen, "data row"), r.guessed(headerLine, true))
	}
	rows := store.rows()
	rng.Shuffle(len(rows), func(i, j int) {
		rows[i], rows[j] = rows[j], rows[i]
		labels[i], labels[j] = labels[j], labels[i]
	})
	held := HeldCount(len(rows), d.Holdout) // at most half: a row to fit is left
	data := &fmap.Data{File: d.File, SHA256: hex.EncodeToString(h.Sum(nil)), Rows: seen,
		Held: rows[:held], Fit: rows[held:]}
	if d.Label >= 0 {
		data.HeldLabels, data.FitLabels = labels[:held], labels[held:]
	}
	res.Data, res.Header = data, r.header
	if res.Labels != nil {
		res.Labels.seen = nil
	}
	return res, nil
}

// textRows reads the rows of a text file: its non-empty lines, split
// into fields.
type textRows struct {
	sc     *bufio.Scanner
	sep    func([]string, string) []string
	gz     *stickyReader // the gzip stream the lines come from, if any
	line   int
	fields []string // the last line's, reused
	// tick, if set, is called every lineTick lines, empty ones too; its
	// error ends the read.
	tick func(line int) error
}

// lineTick is how many lines pass between two calls of textRows.tick.
const lineTick = 1 << 22

// newTextRows returns the rows of in, split by sep; gz, if not nil, is
// the gzip stream in reads.
func newTextRows(in io.Reader, sep func([]string, string) []string, gz *stickyReader) *textRows {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	sc.Split(scanLines)
	return &textRows{sc: sc, sep: sep, gz: gz}
}

// next returns the fields of the next non-empty line and its number; nil
// fields at the end.
func (t *textRows) next() ([]string, int, error) {
	for t.sc.Scan() {
		if t.gz != nil && t.gz.err != nil {
			// The scanner hands out the partial line before the
			// error, which would read as a row of too few columns.
			return nil, 0, gzipError(t.gz.err)
		}
		t.line++
		if t.tick != nil && t.line%lineTick == 0 {
			if err := t.tick(t.line); err != nil {
				return nil, t.line, err
			}
		}
		text := t.sc.Text()
		if t.line == 1 {
			// A UTF-8 byte order mark is no part of the first
			// field (else a first row of numbers reads as a header).
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if text = strings.TrimSpace(text); text != "" {
			t.fields = t.sep(t.fields[:0], text)
			return t.fields, t.line, nil
		}
	}
	if err := t.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, t.line + 1, fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		return nil, t.line, err
	}
	return nil, t.line, nil
}

// splitInto appends to dst the fields of s between the separators sep
// (strings.Split's, into a slice a reader reuses from line to line).
func splitInto(dst []string, s string, sep byte) []string {
	for {
		i := strings.IndexByte(s, sep)
		if i < 0 {
			return append(dst, s)
		}
		dst, s = append(dst, s[:i]), s[i+1:]
	}
}

// fieldsInto appends to dst the fields of s between runs of white space
// (strings.Fields's, into a reused slice).
func fieldsInto(dst []string, s string) []string {
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			return dst
		}
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			return append(dst, s)
		}
		dst, s = append(dst, s[:i]), s[i:]
	}
}

// scanLines is bufio.ScanLines for lines that end in "\n", "\r\n" or a
// lone "\r" (old Mac files, and some exports): a file whose lines end in
// carriage returns alone is read as its rows, not as one line.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	end := bytes.IndexByte(data, '\n')
	if end < 0 {
		end = len(data)
	}
	if cr := bytes.IndexByte(data[:end], '\r'); cr >= 0 && cr < end-1 {
		return cr + 1, data[:cr], nil // a lone carriage return
	} else if cr >= 0 && end == len(data) && !atEOF {
		return 0, nil, nil // a "\r" last: is a "\n" next?
	}
	if end < len(data) {
		return end + 1, bytes.TrimSuffix(data[:end], []byte{'\r'}), nil
	}
	if atEOF {
		return len(data), bytes.TrimSuffix(data, []byte{'\r'}), nil
	}
	return 0, nil, nil
}

// gzipError is the error of a gzip stream that failed: one cut short
// ends early; another (a wrong checksum, junk after the stream) is
// compress/gzip's own, which names gzip already.
func gzipError(err error) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("gzip: %w: the compressed data ends early (is the file cut short?)", err)
	case errors.Is(err, gzip.ErrHeader):
		// gzip.NewReader checked the first member's header: this is
		// what follows the end of a member.
		return fmt.Errorf("%w: the file goes on after the end of its compressed data with bytes that are not gzip (junk appended to it?)", err)
	}
	return err
}

// stickyReader remembers the first error other than io.EOF of its reads.
type stickyReader struct {
	r   io.Reader
	err error
}

// Read reads from the underlying reader, remembering its first error.
func (s *stickyReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

// Read reads from the underlying reader, counting the bytes.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// counted is n nouns: "1 column", "3 columns".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// columnSpan is n nouns from column first, with their numbers: "1 column
// (0)", "64 feature columns (0..63)".
func columnSpan(n, first int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%s (%d)", counted(n, noun), first)
	}
	return fmt.Sprintf("%s (%d..%d)", counted(n, noun), first, first+n-1)
}

// start reads the first non-empty line: the column count, the feature
// columns, and whether it is a header.
func (r *reader) start(fields []string) error {
	r.width = len(fields)
	d := r.d
	layout := func(key, format string, a ...any) error {
		return &DataError{Column: -1, Key: key, Width: r.width, Msg: fmt.Sprintf(format, a...)}
	}
	if d.Label >= r.width {
		return layout("data.label_column", "data.label_column is %d but the file has %s", d.Label, columnSpan(r.width, 0, "column"))
	}
	r.first, r.last = d.First, d.Last
	if r.last < 0 {
		r.first, r.last = 0, r.width-1
		switch d.Label {
		case r.width - 1:
			r.last--
		case 0:
			r.first++
		default:
			if d.Label > 0 {
				return layout("data.label_column", "data.label_column %d splits the columns 0..%d: give data.columns", d.Label, r.width-1)
			}
		}
	}
	switch {
	case r.last >= r.width:
		return layout("data.columns", "data.columns ends at %d but the file has %s", r.last, columnSpan(r.width, 0, "column"))
	case d.Label >= r.first && d.Label <= r.last:
		return layout("data.label_column", "data.label_column %d is inside data.columns [%d, %d]: a label is never a feature", d.Label, r.first, r.last)
	}
	n := r.last - r.first + 1
	if !r.additive && n != r.p.InDim() {
		return layout("domain.dims", "%s but domain.dims is %d", columnSpan(n, r.first, "feature column"), r.p.InDim())
	}
	if d.Header != nil {
		r.header = *d.Header
		return nil
	}
	bad, numbers := -1, 0
	for i, f := range fields {
		if _, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			if !r.header {
				bad, r.header = i, true
			}
		} else {
			numbers++ // a number too large for float64 is still no name
		}
	}
	if r.header {
		r.guess, r.mixed = strings.TrimSpace(fields[bad]), numbers > 0
	}
	if r.header && numbers > 0 {
		// A header of names has no numbers; this may be a data row with a
		// typo, which would be dropped without a word.
		r.warn = &DataError{Column: bad, Msg: fmt.Sprintf("%q is not a number, so the line is taken as a header and skipped, though %d of its %d fields are numbers "+
			"(data.header: false reads it as data, true as a header without this warning)", strings.TrimSpace(fields[bad]), numbers, len(fields))}
	}
	return nil
}

// row parses one data row's features into x (of the feature columns'
// length) and its label; errors are *DataError with the column (the
// caller adds the file and line).
func (r *reader) row(fields []string, x []float64) ([]float64, float64, error) {
	if len(fields) != r.width {
		return nil, 0, &DataError{Column: -1, Msg: fmt.Sprintf("%s, but the first row has %d", counted(len(fields), "column"), r.width)}
	}
	num := func(col int) (float64, error) {
		f := strings.TrimSpace(fields[col])
		v, err := strconv.ParseFloat(f, 64)
		switch {
		case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
			return 0, &DataError{Column: col, Msg: fmt.Sprintf("%q overflows: it is beyond ±%.4g, the largest float64", f, math.MaxFloat64)}
		case err != nil:
			return 0, &DataError{Column: col, Msg: fmt.Sprintf("%q is not a number", f)}
		case math.IsNaN(v) || math.IsInf(v, 0):
			return 0, &DataError{Column: col, Msg: fmt.Sprintf("%q is not finite", f)}
		}
		return v, nil
	}
	dom := r.p.Domain
	for j := range x {
		v, err := num(r.first + j)
		if err != nil {
			return nil, 0, err
		}
		a := min(j, len(dom.Lo)-1)
		lo, hi := dom.Lo[a], dom.Hi[a]
		if r.additive && v == 0 {
			lo = 0 // a homogeneous map takes 0 whatever its smallest nonzero input
		}
		switch {
		case r.keepOutside && (v < lo || v > hi):
			if why := r.p.Kernel.Undefined(a, r.p.InDim(), v); why != "" {
				return nil, 0, &DataError{Column: r.first + j, Msg: fmt.Sprintf("%v: %s", v, why)}
			}
		case r.keepOutside:
		case v < lo || v > hi:
			return nil, 0, &DataError{Column: r.first + j, Msg: fmt.Sprintf("%v is outside the domain %s", v, dom.Describe())}
		case dom.Integer && v != math.Trunc(v):
			return nil, 0, &DataError{Column: r.first + j, Msg: fmt.Sprintf("%v is not an integer (the domain is %s)", v, dom.Describe())}
		}
		x[j] = v
	}
	label := math.NaN()
	if r.d.Label >= 0 {
		v, err := num(r.d.Label)
		if err != nil {
			return nil, 0, err
		}
		label = v
	}
	return x, label, nil
}
