package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/atomicfile"
)

// The bounds of a map file. gen -map writes about 35 bytes per number
// (indented JSON), and the largest maps featmap makes hold about 10⁷
// numbers (docs/limits.md, "Map files"): the bounds leave room above them
// and keep a hostile file from costing more memory than such a map.
const (
	// MaxMapBytes is the largest map file ReadMap reads.
	MaxMapBytes = 512 << 20
	// MaxMapValues is the most array elements and object members a map
	// file may hold (counted by their commas): with the whitespace between
	// them squeezed out, the decoder holds at most a few bytes per value,
	// and the decoded map at most a few words.
	MaxMapValues = 1 << 24
)

// ReadMap reads a map file written by featmap gen -map (ReadMapContext
// without a context).
func ReadMap(path string) (*fmap.Verified, error) {
	return ReadMapContext(context.Background(), path)
}

// ReadMapContext reads a map file written by featmap gen -map: a regular
// file (a FIFO, a device or a directory is refused before it is opened) of
// at most MaxMapBytes bytes and MaxMapValues values, decoded as a stream
// strictly (an unknown key, a value of the wrong type or data after the
// map is an error); it checks the map (fmap.Map.Validate) and that its
// kernel fits it (fmap.Map.CheckKernel) and its data section's columns
// (fmap.DataColumns.Check), naming the JSON field. ctx stops
// the read. Its errors are *InputError values naming the file.
func ReadMapContext(ctx context.Context, path string) (*fmap.Verified, error) {
	bad := func(format string, a ...any) error {
		return &InputError{fmt.Errorf("%s: "+format, append([]any{path}, a...)...)}
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, &InputError{pathError(path, err)}
	case !fi.Mode().IsRegular():
		return nil, bad("not a regular file (%s): featmap reads maps only from regular files", atomicfile.Kind(fi.Mode()))
	case fi.Size() > MaxMapBytes:
		return nil, bad("%d bytes, more than the %d a map file may have (evaluate.MaxMapBytes)", fi.Size(), MaxMapBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{pathError(path, err)}
	}
	defer f.Close()
	r := &mapReader{ctx: ctx, r: f, buf: make([]byte, 64<<10)}
	v, err := decodeMap(r)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case r.err != nil:
		return nil, bad("%v", r.err)
	case err != nil:
		return nil, bad("%v", err)
	}
	return v, nil
}

// pathError is err of path without Go's "open" or "stat" prefix:
// "m.json: no such file or directory".
func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return err
}

// notAMap starts the message of a file that is not a map gen -map writes.
const notAMap = "not a map written by featmap gen -map"

// decodeMap decodes one map from r and checks it; its errors say what is
// wrong (the caller names the file).
func decodeMap(r io.Reader) (*fmap.Verified, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var v fmap.Verified
	if err := dec.Decode(&v); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.EOF):
			return nil, errors.New("empty: " + notAMap)
		case errors.As(err, &te) && te.Field != "":
			return nil, fmt.Errorf("%s: a JSON %s where the map has %s: %s", te.Field, te.Value, te.Type, notAMap)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return nil, fmt.Errorf("%s, which no map written by featmap gen -map has", strings.TrimPrefix(err.Error(), "json: "))
		}
		return nil, fmt.Errorf("%s: %v", notAMap, strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the map's JSON object: %s", notAMap)
	}
	if v.Map == nil {
		return nil, fmt.Errorf("no \"map\" key: %s", notAMap)
	}
	if v.Data != nil {
		if err := v.Data.Check(); err != nil {
			var fe *fmap.FieldError
			if errors.As(err, &fe) {
				return nil, fmt.Errorf("data.%s: %s", fe.Field, fe.Msg)
			}
			return nil, err
		}
	}
	if err := v.Map.Validate(); err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "fmap: "))
	}
	if err := v.Map.CheckKernel(); err != nil {
		var fe *fmap.FieldError
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("map.%s: %s", fe.Field, fe.Msg)
		}
		return nil, errors.New(strings.TrimPrefix(err.Error(), "fmap: "))
	}
	return &v, nil
}

// mapReader is a map file as the JSON decoder reads it: its bytes with
// every run of whitespace outside strings squeezed to one space (JSON's
// insignificant whitespace, a third of what gen -map writes, need not sit
// in the decoder's buffer; one space still parts two tokens), failing once
// more than MaxMapBytes bytes are read (a file that grew since it was
// looked at) or the file holds more than MaxMapValues commas outside
// strings, and once ctx is done. err is the reason it stopped, if it did.
type mapReader struct {
	ctx context.Context
	r   io.Reader
	buf []byte
	err error

	read, commas     int64
	inString, escape bool
	space            bool // the last byte passed on was a squeezed space
}

// Read passes on the next bytes of the file, squeezed.
func (m *mapReader) Read(p []byte) (int, error) {
	if m.err != nil {
		return 0, m.err
	}
	for {
		if err := m.ctx.Err(); err != nil {
			m.err = err
			return 0, err
		}
		k, rerr := m.r.Read(m.buf[:min(len(m.buf), len(p))])
		m.read += int64(k)
		if m.read > MaxMapBytes {
			m.err = fmt.Errorf("more than the %d bytes a map file may have (evaluate.MaxMapBytes; it grew while read)", MaxMapBytes)
			return 0, m.err
		}
		out := 0
		for _, c := range m.buf[:k] {
			switch {
			case m.inString:
				switch {
				case m.escape:
					m.escape = false
				case c == '\\':
					m.escape = true
				case c == '"':
					m.inString = false
				}
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				if m.space {
					continue
				}
				m.space = true
				p[out] = ' '
				out++
				continue
			case c == '"':
				m.inString = true
			case c == ',':
				if m.commas++; m.commas > MaxMapValues {
					m.err = fmt.Errorf("more than the %d values a map file may have (evaluate.MaxMapValues)", MaxMapValues)
					return 0, m.err
				}
			}
			m.space = false
			p[out] = c
			out++
		}
		if out > 0 || rerr != nil {
			return out, rerr
		}
	}
}
