// Package learnplan is what learning takes and costs, known before it runs:
// which labels are classes (labels.go: Classes, MaxClasses), the
// multiply-adds of learning σ and of the model a learned map carries
// (cost.go: LearnCost within LearnBudget, MaxLearnedDim), and the bound on
// learning's features (MaxLearnDim). It imports nothing of featmap, so
// that reading a spec (package spec) checks a learn section's task and
// price without compiling the learning itself (package learn, which
// follows these rules).
package learnplan
