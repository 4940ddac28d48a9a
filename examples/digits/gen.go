// Package digits is a runnable example of a learned predictor: featmap
// learns the Gaussian kernel's σ from the labelled rows of train.csv.gz
// (scikit-learn's 8×8 digits; README.md), designs a Nyström map at it,
// trains a ridge classifier on the map's features and emits both as Go
// code (digits_gen.go: Digits, DigitsClass); example_test.go classifies
// the test rows it never saw. Regenerate with go generate.
package digits

//go:generate go run ../../cmd/featmap gen -o digits_gen.go digits.yaml
