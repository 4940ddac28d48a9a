package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/featmap/featmap/internal/atomicfile"
)

// File is one file of a report: its name in the report's directory and its
// content.
type File struct {
	Name string
	Data []byte
}

// Render renders the report's files in memory, sorted by name: index.html,
// report.md, results.json and one SVG file per plot.
func Render(in *Input) ([]File, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	figs, err := in.figures()
	if err != nil {
		return nil, err
	}
	res, err := in.resultsJSON()
	if err != nil {
		return nil, fmt.Errorf("report: results.json: %w", err)
	}
	page, err := in.html(figs)
	if err != nil {
		return nil, err
	}
	files := []File{
		{Name: "index.html", Data: page},
		{Name: "report.md", Data: in.markdown(figs)},
		{Name: "results.json", Data: res},
	}
	for _, f := range figs {
		files = append(files, File{Name: f.File, Data: f.SVG})
	}
	sort.Slice(files, func(a, b int) bool { return files[a].Name < files[b].Name })
	return files, nil
}

// check rejects an Input whose cells do not match its methods and dims.
func (in *Input) check() error {
	if len(in.Methods) == 0 || len(in.Dims) == 0 {
		return errors.New("report: nothing to compare (no methods or no dimensions)")
	}
	if len(in.Cells) != len(in.Methods) {
		return fmt.Errorf("report: %d rows of cells for %d methods", len(in.Cells), len(in.Methods))
	}
	for i, row := range in.Cells {
		if len(row) != len(in.Dims) {
			return fmt.Errorf("report: method %s has %d cells for %d dimensions", in.Methods[i].Label, len(row), len(in.Dims))
		}
	}
	return nil
}

// plotFiles are the names of every plot a report may have, for removing
// the ones an earlier report in the same directory left behind.
var plotFiles = []string{"error-data.svg", "error-linf.svg", "error-rms.svg", "kernel-error.svg", "signature-error.svg"}

// Write renders the report (Render) and writes its files into dir,
// creating dir if needed, over files of an earlier report only (CheckDir
// says why not). Every file is written atomically: its content
// goes to a temporary file in dir first, and only once every file is
// written in full are they renamed over their targets. So a failure while
// rendering or writing leaves dir as it was (no temporary files behind);
// then plots an earlier report left in dir that this one lacks are
// removed.
func Write(dir string, in *Input) error {
	files, err := Render(in)
	if err != nil {
		return err
	}
	return writeFiles(dir, files)
}

// writeFiles writes files into dir atomically, as Write describes, if dir
// may hold a report (CheckDir).
func writeFiles(dir string, files []File) error {
	if err := CheckDir(dir); err != nil {
		return fmt.Errorf("report: %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	set := make([]atomicfile.File, len(files))
	for i, f := range files {
		set[i] = atomicfile.File{Path: filepath.Join(dir, f.Name), Data: f.Data}
	}
	if err := atomicfile.Write(set...); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	written := map[string]bool{}
	for _, f := range files {
		written[f.Name] = true
	}
	for _, name := range plotFiles {
		if !written[name] {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("report: removing a stale plot: %w", err)
			}
		}
	}
	return nil
}
