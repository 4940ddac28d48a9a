package codegen

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
)

// dataFile is the content of a map's data file: constants beyond
// MaxLiterals, as little-endian float64, and its SHA-256 sum (stated in
// the header and the doc comments).
type dataFile struct {
	blob []byte
	sum  [sha256.Size]byte
}

// newDataFile returns the data file of the constants parts, in order, or
// nil when there are at most MaxLiterals of them (they stay Go literals).
func newDataFile(parts ...[]float64) *dataFile {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n <= MaxLiterals {
		return nil
	}
	d := &dataFile{blob: make([]byte, 0, 8*n)}
	for _, p := range parts {
		for _, v := range p {
			d.blob = binary.LittleEndian.AppendUint64(d.blob, math.Float64bits(v))
		}
	}
	d.sum = sha256.Sum256(d.blob)
	return d
}

// where says where the constants are, for the header: the data file
// beside the Go file, with its size, sum and layout.
func (d *dataFile) where(goFile, layout string) string {
	return fmt.Sprintf("the data file %s beside this file (%d bytes, SHA-256 %x: %s), embedded and decoded once at package init",
		DataFileName(goFile), len(d.blob), d.sum, layout)
}

// dataName is the data file's variable, dataSumName its SHA-256's.
func (e *emitter) dataName() string    { return e.p.priv + "Data" }
func (e *emitter) dataSumName() string { return e.p.priv + "DataSHA256" }

// embedded is one array of float64 constants decoded from the data file:
// its name, doc comment and length.
type embedded struct {
	name, doc string
	size      jen.Code
}

// embedData emits the data file's variable (//go:embed), the arrays in
// the order of the file, each with its doc comment, the file's SHA-256,
// and the init function that checks the embedded file's length and
// SHA-256 — a .bin of another run of featmap gen beside this Go file is a
// panic naming both, never other constants — and decodes the arrays.
func (e *emitter) embedData(f *jen.File, d *dataFile, layout string, arrays ...embedded) {
	p := e.p
	f.Anon("embed")
	name := DataFileName(p.info.File)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is the data file %s (%d bytes, SHA-256 %x): %s.",
		e.dataName(), name, len(d.blob), d.sum, layout))) + "\n//\n//go:embed " + name)
	f.Var().Id(e.dataName()).Index().Byte()
	for _, a := range arrays {
		f.Line()
		f.Comment(commentBody(paragraphs(a.doc + " Decoded from " + e.dataName() + " at init.")))
		f.Var().Id(a.name).Index(a.size).Float64()
	}
	sum := make([]jen.Code, len(d.sum))
	for i, b := range d.sum {
		sum[i] = jen.Id(fmt.Sprintf("0x%02x", b))
	}
	f.Line()
	f.Comment(fmt.Sprintf("%s is the SHA-256 of the data file %s was generated with.", e.dataSumName(), p.info.File))
	f.Var().Id(e.dataSumName()).Op("=").Index(jen.Qual("crypto/sha256", "Size")).Byte().Custom(multiLine, sumRows(sum)...)
	decode := func(arr string) jen.Code {
		return jen.For(jen.Id("i").Op(":=").Range().Id(arr)).Block(
			jen.Id(arr).Index(jen.Id("i")).Op("=").Qual("math", "Float64frombits").Call(
				jen.Qual("encoding/binary", "LittleEndian").Dot("Uint64").Call(jen.Id("b").Index(jen.Lit(8).Op("*").Id("i").Op(":"))),
			),
		)
	}
	size := jen.Len(jen.Id(arrays[0].name))
	for _, a := range arrays[1:] {
		size = size.Op("+").Len(jen.Id(a.name))
	}
	if len(arrays) > 1 {
		size = jen.Parens(size)
	}
	msg := fmt.Sprintf("%s: %s: the embedded %s is not the data file %s was generated with (%d bytes, SHA-256 %x): the two files come from different runs of featmap gen; run it again",
		p.info.Package, p.name, name, p.info.File, len(d.blob), d.sum)
	body := []jen.Code{
		jen.Id("b").Op(":=").Id(e.dataName()),
		jen.If(jen.Len(jen.Id("b")).Op("!=").Lit(8).Op("*").Add(size).Op("||").
			Qual("crypto/sha256", "Sum256").Call(jen.Id("b")).Op("!=").Id(e.dataSumName())).Block(
			jen.Panic(jen.Lit(msg)),
		),
	}
	for i, a := range arrays {
		if i > 0 {
			prev := arrays[i-1].name
			body = append(body, jen.Id("b").Op("=").Id("b").Index(jen.Lit(8).Op("*").Len(jen.Id(prev)).Op(":")))
		}
		body = append(body, decode(a.name))
	}
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("init checks that %s is the data file %s was generated with (its length and SHA-256; else it panics, naming both files) and decodes it once: the constants are little-endian float64.", e.dataName(), p.info.File))))
	f.Func().Id("init").Params().Block(body...)
}

// sumRows lays out the 32 bytes of a SHA-256, 16 a line.
func sumRows(b []jen.Code) []jen.Code {
	return []jen.Code{jen.List(b[:16]...), jen.List(b[16:]...)}
}
