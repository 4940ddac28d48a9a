// Package benchmaps holds codegen's emitted χ² maps (testmaps.Chi2Int and
// testmaps.Chi2Interval) so that their speed can be measured with
// go test -bench against the reference evaluator and the memory floor. The
// emitted files are rewritten by go test ./codegen -update and checked for
// staleness by codegen's TestBenchmapsUpToDate.
package benchmaps
