package spec

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design/learnplan"
)

// This file decides a learn section's task: whether the data's labels are
// classes or numbers (learn.task, or decided from the labels).

// decideTask sets s.Learn's task from the data file's labels when
// learn.task is not given: classification when every label is an integer
// and there are at most learnplan.MaxClasses of them, regression when none is
// an integer (or there are more distinct integers than classes); a file
// that mixes the two is refused at the first label of the fewer kind, a
// *datafile.DataError naming it and the key to set. A given task is
// checked: classification takes at most learnplan.MaxClasses distinct labels.
func decideTask(s *Spec, labels *datafile.Labels) error {
	l := s.Learn
	if l == nil || labels == nil {
		return nil
	}
	taskAt := fmt.Sprintf("learn.task, %s:%d", s.Path, l.Line)
	switch l.Task {
	case TaskClassification:
		d := s.Problem.Data
		if n := learnplan.Distinct(append(append([]float64(nil), d.FitLabels...), d.HeldLabels...)); n > learnplan.MaxClasses {
			return &SpecError{Path: s.Path, Line: l.TaskLine, Field: "learn.task",
				Msg: fmt.Sprintf("classification with %d distinct labels in %s: at most %d classes (regression learns them as numbers)", n, labels.File, learnplan.MaxClasses)}
		}
		l.TaskWhy = "learn.task"
		if err := oneClass(s, labels); err != nil {
			return err
		}
		return fewRowsPerClass(s, labels.File, l.TaskLine, "learn.task")
	case TaskRegression:
		l.TaskWhy = "learn.task"
		return labels.CheckNumbers()
	}
	total := labels.Integers + labels.Others
	switch {
	case labels.Others == 0 && labels.Distinct <= learnplan.MaxClasses:
		l.Task = TaskClassification
		l.TaskWhy = fmt.Sprintf("every label is an integer, %d distinct: classes (learn.task sets it)", labels.Distinct)
		if err := oneClass(s, labels); err != nil {
			return err
		}
		return fewRowsPerClass(s, labels.File, l.Line, "learn")
	case labels.Others == 0:
		l.Task = TaskRegression
		l.TaskWhy = fmt.Sprintf("every label is an integer, but more than %d distinct: numbers (learn.task sets it)", learnplan.MaxClasses)
		return labels.CheckNumbers()
	case labels.Integers == 0:
		l.Task = TaskRegression
		l.TaskWhy = "no label is an integer: numbers (learn.task sets it)"
		return labels.CheckNumbers()
	case labels.Others <= labels.Integers:
		at := labels.FirstOther
		what := "is not an integer"
		if !(math.Abs(at.Value) <= learnplan.MaxClassLabel) {
			what = "is beyond ±2⁵³ (where every float64 is an integer: a number, not a class)"
		}
		return &datafile.DataError{File: labels.File, Line: at.Line, Column: labels.Column,
			Msg: fmt.Sprintf("label %v "+what+", though %d of the %d labels are (class labels): "+
				"set learn.task: regression (%s) to learn the labels as numbers, or learn.task: classification to take every value as a class; or correct the label",
				at.Value, labels.Integers, total, taskAt)}
	default:
		at := labels.FirstInteger
		return &datafile.DataError{File: labels.File, Line: at.Line, Column: labels.Column,
			Msg: fmt.Sprintf("label %v is an integer, though %d of the %d labels are not (numbers): "+
				"set learn.task: regression (%s) to learn the labels as numbers, or learn.task: classification to take every value as a class",
				at.Value, labels.Others, total, taskAt)}
	}
}

// checkKernelsLabels checks a kernels section's labels as the group lasso
// will take them (learnplan.Classes of the rows to fit, as
// learn.RFFGroupLasso decides): classes of more than one class, or
// numbers within ±datafile.MaxNumberLabel.
func checkKernelsLabels(s *Spec, labels *datafile.Labels) error {
	if s.GroupLasso == nil || labels == nil {
		return nil
	}
	if !learnplan.Classes(s.Problem.Data.FitLabels) {
		return labels.CheckNumbers()
	}
	if err := oneClass(s, labels); err != nil {
		return err
	}
	return fewRowsPerClass(s, labels.File, s.GroupLasso.Line, "kernels")
}

// oneClass refuses class labels of a single class among the rows kept:
// one class is no classifier (it "learned" a validation error of 0 and an
// accuracy of 1). The error is at the label column.
func oneClass(s *Spec, labels *datafile.Labels) error {
	d := s.Problem.Data
	all := append(append([]float64(nil), d.FitLabels...), d.HeldLabels...)
	if len(all) == 0 || learnplan.Distinct(all) > 1 {
		return nil
	}
	return &datafile.DataError{File: labels.File, Column: labels.Column,
		Msg: fmt.Sprintf("every label of the %d rows kept is %v (data.label_column, %s:%d): one class is no classifier; learning needs labels of at least two classes",
			len(all), all[0], s.Path, s.Data.Line)}
}

// fewRowsPerClass refuses classes most of which have a single row among
// the rows kept: learning splits each class's rows into rows to fit and
// to validate, and a one-row class has none of one kind (200 distinct
// integers in 200 rows failed with "160 training and 0 validation rows").
// Such labels are likelier numbers than classes: the message says how to
// learn them as numbers.
func fewRowsPerClass(s *Spec, file string, line int, field string) error {
	d := s.Problem.Data
	hint := "If the labels are numbers, set learn.task: regression"
	if field == "kernels" {
		hint = fmt.Sprintf("The group lasso takes labels as classes when they are integers of at most %d distinct values among the rows to fit: numbers need more distinct values, or labels that are not integers", learnplan.MaxClasses)
	}
	rows := map[float64]int{}
	for _, ls := range [][]float64{d.FitLabels, d.HeldLabels} {
		for _, v := range ls {
			rows[v]++
		}
	}
	single := 0
	for _, n := range rows {
		if n == 1 {
			single++
		}
	}
	if 2*single <= len(rows) {
		return nil
	}
	return &SpecError{Path: s.Path, Line: line, Field: field,
		Msg: fmt.Sprintf("%d of the %d classes of %s's labels have a single row among the %d kept: a class needs rows to fit and to validate. %s", single, len(rows), file, len(d.FitLabels)+len(d.HeldLabels), hint)}
}
