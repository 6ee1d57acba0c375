package reldate

import (
	"fmt"
	"time"
)

// precision is how exact a resolved phrase is: "yesterday" names a day, "last month" a month.
type precision int

const (
	dayPrec precision = iota
	weekPrec
	monthPrec
	yearPrec
)

// when is a resolved phrase: a date and how much of it the phrase meant.
type when struct {
	t    time.Time
	prec precision
}

// String writes the date at the phrase's precision, in forms that hold no relative phrase, so
// that rewriting twice changes nothing more.
func (w when) String() string {
	y, m, d := w.t.Date()
	switch w.prec {
	case weekPrec:
		return fmt.Sprintf("the week of %04d-%02d-%02d", y, int(m), d)
	case monthPrec:
		return fmt.Sprintf("%04d-%02d", y, int(m))
	case yearPrec:
		return fmt.Sprintf("%04d", y)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, int(m), d)
}

// prep is the preposition a bare phrase of this precision takes ("on 2026-11-17", "in 2026-10").
func (w when) prep() string {
	if w.prec == dayPrec {
		return "on"
	}
	return "in"
}

func days(day time.Time, n int) when { return when{day.AddDate(0, 0, n), dayPrec} }

// weekOf is the week (Monday first) that holds day, shifted by n weeks.
func weekOf(day time.Time, n int) when {
	monday := day.AddDate(0, 0, -((int(day.Weekday())+6)%7)+7*n)
	return when{monday, weekPrec}
}

// monthOf is day's month shifted by n months; from the first of the month, so that no month
// overflows into the next.
func monthOf(day time.Time, n int) when {
	first := time.Date(day.Year(), day.Month(), 1, 12, 0, 0, 0, time.UTC)
	return when{first.AddDate(0, n, 0), monthPrec}
}

func yearOf(day time.Time, n int) when {
	return when{time.Date(day.Year()+n, 1, 1, 12, 0, 0, 0, time.UTC), yearPrec}
}

// weekdayBefore is the most recent wd strictly before day; weekdayAfter the first strictly after.
func weekdayBefore(day time.Time, wd time.Weekday) when {
	back := (int(day.Weekday())-int(wd)+6)%7 + 1
	return days(day, -back)
}

func weekdayAfter(day time.Time, wd time.Weekday) when {
	ahead := (int(wd)-int(day.Weekday())+6)%7 + 1
	return days(day, ahead)
}
