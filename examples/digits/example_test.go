package digits_test

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/featmap/featmap/examples/digits"
)

// Example classifies the test rows, which neither learning nor the model
// saw, with the emitted predictor.
func Example() {
	f, err := os.Open("test.csv.gz")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		panic(err)
	}
	right, rows := 0, 0
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		var x [digits.DigitsIn]float64
		for j := range x {
			x[j], _ = strconv.ParseFloat(fields[j], 64)
		}
		label, _ := strconv.ParseFloat(fields[digits.DigitsIn], 64)
		if digits.DigitsClass(&x) == label {
			right++
		}
		rows++
	}
	fmt.Printf("%d classes; %d of %d test rows classified right (%.1f %%)\n", digits.DigitsClasses, right, rows, 100*float64(right)/float64(rows))
	// Output:
	// 10 classes; 437 of 445 test rows classified right (98.2 %)
}
