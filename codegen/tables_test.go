package codegen

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
)

// coefCount is the number of polynomial coefficients a plan emits (its
// pieces and every axis's).
func coefCount(p *plan) int {
	n := 0
	if p.pieces() != nil {
		n += p.pieces().coefs()
	}
	for _, pc := range p.axisPieces() {
		if pc != nil {
			n += pc.coefs()
		}
	}
	return n
}

// TestTablesChoice: emit.tables changes only maps with polynomial pieces;
// for those, Compact has no more coefficients than Fast and Small no more
// than Compact, and Small's file is smaller than Fast's. Every other map's
// file is byte-identical under the three settings. (That the Compact and
// Small code builds, allocates nothing and keeps the accuracy rule is
// TestEmittedAgree's.)
func TestTablesChoice(t *testing.T) {
	cases := testmaps.Cases()
	if testing.Short() {
		cases = cases[:0:0]
		for _, c := range testmaps.Cases() {
			if c.Golden {
				cases = append(cases, c)
			}
		}
	}
	withPieces := 0
	for _, c := range cases {
		vm := c.Map()
		var srcs [3][]byte
		var coefs [3]int
		for _, tb := range []Tables{Fast, Compact, Small} {
			info := testInfo(c.Name)
			info.Tables = tb
			files := sharedFiles(t, c, tb)
			p, err := newPlan(vm, info)
			if err != nil {
				t.Fatal(err)
			}
			srcs[tb], coefs[tb] = files[0].Data, coefCount(p)
		}
		if coefs[Fast] == 0 {
			if !bytes.Equal(srcs[Fast], srcs[Compact]) || !bytes.Equal(srcs[Fast], srcs[Small]) {
				t.Errorf("%s has no polynomial pieces, yet its file depends on the tables setting", c.Name)
			}
			continue
		}
		withPieces++
		t.Logf("%s: coefficients fast %d, compact %d, small %d; bytes %d, %d, %d", c.Name,
			coefs[Fast], coefs[Compact], coefs[Small], len(srcs[Fast]), len(srcs[Compact]), len(srcs[Small]))
		if !(coefs[Small] <= coefs[Compact] && coefs[Compact] <= coefs[Fast]) {
			t.Errorf("%s: coefficients fast %d, compact %d, small %d: not falling", c.Name, coefs[Fast], coefs[Compact], coefs[Small])
		}
		if !(len(srcs[Small]) < len(srcs[Fast])) {
			t.Errorf("%s: small file %d bytes, not below fast's %d", c.Name, len(srcs[Small]), len(srcs[Fast]))
		}
	}
	if withPieces == 0 {
		t.Fatal("no test map has polynomial pieces")
	}
}

// TestTablesShipped: on the shipped maps with pieces, each setting's file
// is strictly smaller than the one before (fast, compact, small).
func TestTablesShipped(t *testing.T) {
	for _, name := range tablesMaps {
		vm := loadShipped(t, name)
		var size [3]int
		for _, tb := range []Tables{Fast, Compact, Small} {
			info := testInfo(name)
			info.Tables = tb
			src, err := Generate(vm, info)
			if err != nil {
				t.Fatal(err)
			}
			size[tb] = len(src)
		}
		t.Logf("%s: fast %d bytes, compact %d, small %d", name, size[Fast], size[Compact], size[Small])
		if !(size[Small] < size[Compact] && size[Compact] < size[Fast]) {
			t.Errorf("%s: fast %d bytes, compact %d, small %d: not strictly falling", name, size[Fast], size[Compact], size[Small])
		}
	}
}

// TestTablesGolden compares Chi2Interval emitted with Small tables with
// testdata/chi2interval_small.golden.
func TestTablesGolden(t *testing.T) {
	info := testInfo("Chi2Interval")
	info.Tables = Small
	src, err := Generate(testmaps.Chi2Interval(), info)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, filepath.Join("testdata", "chi2interval_small.golden"), src)
}

// TestTablesString: the names are the spec's, in the constants' order.
func TestTablesString(t *testing.T) {
	for i, want := range []string{"fast", "compact", "small"} {
		if got := Tables(i).String(); got != want {
			t.Errorf("Tables(%d) = %q, want %q", i, got, want)
		}
		if tb, ok := TablesNamed(want); !ok || tb != Tables(i) {
			t.Errorf("TablesNamed(%q) = %v, %v", want, tb, ok)
		}
	}
	if _, ok := TablesNamed("tiny"); ok {
		t.Error("TablesNamed accepts tiny")
	}
}
