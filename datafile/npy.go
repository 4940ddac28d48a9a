package datafile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// This file reads NumPy's .npy format as rows of decimal fields, for the
// same checks as a text file's rows.

// npyRows reads the header of a .npy file (NumPy's format, versions 1–3:
// a little-endian float64 or float32 array in C order, of one or two
// dimensions) and returns a reader of its rows as round-trip decimal
// fields, numbered from 1, for the same checks as a text file's.
func npyRows(in io.Reader) (func() ([]string, int, error), error) {
	var pre [8]byte
	if _, err := io.ReadFull(in, pre[:]); err != nil || string(pre[:6]) != "\x93NUMPY" {
		return nil, errors.New("not a .npy file (no \\x93NUMPY magic)")
	}
	var hlen int
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(in, b[:]); err != nil {
			return nil, fmt.Errorf(".npy header: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(in, b[:]); err != nil {
			return nil, fmt.Errorf(".npy header: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
	default:
		return nil, fmt.Errorf(".npy format version %d.%d: featmap reads versions 1 to 3", pre[6], pre[7])
	}
	if hlen > 1<<16 {
		return nil, fmt.Errorf(".npy header of %d bytes", hlen)
	}
	h := make([]byte, hlen)
	if _, err := io.ReadFull(in, h); err != nil {
		return nil, fmt.Errorf(".npy header: %w", err)
	}
	header := string(h)
	field := func(key string) string {
		i := strings.Index(header, "'"+key+"'")
		if i < 0 {
			return ""
		}
		rest := strings.TrimSpace(header[i+len(key)+2:])
		rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
		if strings.HasPrefix(rest, "(") {
			if j := strings.Index(rest, ")"); j >= 0 {
				return rest[:j+1]
			}
		}
		if j := strings.IndexAny(rest, ",}"); j >= 0 {
			return strings.TrimSpace(rest[:j])
		}
		return rest
	}
	size := 0
	switch descr := strings.Trim(field("descr"), "'\""); descr {
	case "<f8":
		size = 8
	case "<f4":
		size = 4
	default:
		return nil, fmt.Errorf(".npy dtype %q: featmap reads little-endian float64 (<f8) or float32 (<f4)", descr)
	}
	if field("fortran_order") != "False" {
		return nil, errors.New(".npy array in Fortran order: save it in C order (numpy.ascontiguousarray)")
	}
	var dims []int
	for _, p := range strings.Split(strings.Trim(field("shape"), "()"), ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return nil, fmt.Errorf(".npy shape %s", field("shape"))
		}
		dims = append(dims, v)
	}
	var rows, cols int
	switch len(dims) {
	case 1:
		rows, cols = dims[0], 1
	case 2:
		rows, cols = dims[0], dims[1]
	default:
		return nil, fmt.Errorf(".npy array of %d dimensions: featmap reads one row per sample (1 or 2 dimensions)", len(dims))
	}
	if cols < 1 || cols > maxLine/8 {
		return nil, fmt.Errorf(".npy rows of %d values", cols)
	}
	buf := make([]byte, cols*size)
	row := 0
	return func() ([]string, int, error) {
		if row == rows {
			// The shape is the header's word: data beyond it means a
			// header that lies (or a file written twice), never rows to
			// drop without a word.
			extra, err := io.Copy(io.Discard, in)
			if err != nil {
				return nil, row, err
			}
			if extra > 0 {
				return nil, row, fmt.Errorf(".npy header's shape says %d rows of %d values, but %d more bytes follow them (%.6g rows more): the shape is wrong", rows, cols, extra, float64(extra)/float64(len(buf)))
			}
			return nil, row, nil
		}
		if _, err := io.ReadFull(in, buf); err != nil {
			return nil, row + 1, fmt.Errorf(".npy data ends within row %d of %d: %w", row+1, rows, err)
		}
		row++
		fields := make([]string, cols)
		for j := range fields {
			var v float64
			if size == 8 {
				v = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*j:]))
			} else {
				v = float64(math.Float32frombits(binary.LittleEndian.Uint32(buf[4*j:])))
			}
			fields[j] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		return fields, row, nil
	}, nil
}
