// Package generated holds feature maps emitted by featmap from the shipped
// specs in ../specs: the maps of Chum's Table 1 and VLFeat's rows of it, a
// χ² map for real-valued histograms by each method, 1-D RBF maps, a 2-D
// RBF modulation map, a Gaussian random-feature map of 64 inputs for the
// digits data (its frequencies in rbf_digits_d256.bin), an ANNFM χ² map
// with a table of anchors per digits pixel (chi2_annfm_digits_d7.bin) and
// maps of the polynomial, Laplacian and Matérn kernels of the wine data's
// 13 inputs. The code is
// generated; `go generate ./generated` rebuilds it (CI rebuilds it and
// fails if anything changes). testdata/*.map.json holds each map as featmap
// designed it, with its measured errors, for the tests here that hold the
// emitted functions to featmap's reference evaluator.
package generated

//go:generate go run ../cmd/featmap gen -o chi2_u8_d5.go -map testdata/Chi2U8D5.map.json ../specs/table1-chi2-5d.yaml
//go:generate go run ../cmd/featmap gen -o chi2_u8_d7.go -map testdata/Chi2U8D7.map.json ../specs/table1-chi2-7d.yaml
//go:generate go run ../cmd/featmap gen -o intersection_u8_d5.go -map testdata/IntersectionU8D5.map.json ../specs/table1-intersection-5d.yaml
//go:generate go run ../cmd/featmap gen -o intersection_u8_d7.go -map testdata/IntersectionU8D7.map.json ../specs/table1-intersection-7d.yaml
//go:generate go run ../cmd/featmap gen -o js_u8_d5.go -map testdata/JSU8D5.map.json ../specs/table1-js-5d.yaml
//go:generate go run ../cmd/featmap gen -o js_u8_d7.go -map testdata/JSU8D7.map.json ../specs/table1-js-7d.yaml
//go:generate go run ../cmd/featmap gen -o chi2_vlfeat_u8_d5.go -map testdata/Chi2VLFeatU8D5.map.json ../specs/table1-vlfeat-chi2-5d.yaml
//go:generate go run ../cmd/featmap gen -o chi2_vlfeat_u8_d7.go -map testdata/Chi2VLFeatU8D7.map.json ../specs/table1-vlfeat-chi2-7d.yaml
//go:generate go run ../cmd/featmap gen -o intersection_vlfeat_u8_d7.go -map testdata/IntersectionVLFeatU8D7.map.json ../specs/table1-vlfeat-intersection-7d.yaml
//go:generate go run ../cmd/featmap gen -o js_vlfeat_u8_d7.go -map testdata/JSVLFeatU8D7.map.json ../specs/table1-vlfeat-js-7d.yaml
//go:generate go run ../cmd/featmap gen -o chi2_hist_d7.go -map testdata/Chi2HistD7.map.json ../specs/chi2-hist-7d.yaml
//go:generate go run ../cmd/featmap gen -o chi2_li_hist_d7.go -map testdata/Chi2LiHistD7.map.json ../specs/li-chi2-hist-7d.yaml
//go:generate go run ../cmd/featmap gen -o chi2_cheb_hist_d7.go -map testdata/Chi2ChebHistD7.map.json ../specs/chebyshev-chi2-hist-7d.yaml
//go:generate go run ../cmd/featmap gen -o rbf_s03_d11.go -map testdata/RBFS03D11.map.json ../specs/rbf-sigma03-11d.yaml
//go:generate go run ../cmd/featmap gen -o rbf_s03_harmonic17.go -map testdata/RBFS03Harmonic17.map.json ../specs/harmonic-rbf-sigma03-17d.yaml
//go:generate go run ../cmd/featmap gen -o rbf2d_mod_s03_d31.go -map testdata/RBF2DModS03D31.map.json ../specs/rbf2d-sigma03-modulation-31d.yaml
//go:generate go run ../cmd/featmap gen -o rbf_digits_d256.go -map testdata/RBFDigits.map.json ../specs/rff-rbf-digits-256d.yaml
//go:generate go run ../cmd/featmap gen -o chi2_annfm_digits_d7.go -map testdata/Chi2ANNFMDigits.map.json ../specs/annfm-chi2-digits-d7.yaml
//go:generate go run ../cmd/featmap gen -o poly_wine_d256.go -map testdata/PolyWine.map.json ../specs/poly-wine-256d.yaml
//go:generate go run ../cmd/featmap gen -o laplacian_wine_d256.go -map testdata/LaplacianWine.map.json ../specs/laplacian-wine-256d.yaml
//go:generate go run ../cmd/featmap gen -o matern_wine_d256.go -map testdata/MaternWine.map.json ../specs/matern-wine-256d.yaml
