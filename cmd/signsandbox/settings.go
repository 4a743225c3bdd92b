package main

// Settings. Every setting of a command is one row of a table: its flag,
// the environment variable read when the flag is not given, its default
// and a parser that checks the text and stores the value. Flags win over
// the environment. Because the table knows where each value came from,
// every error about a value names it as the user gave it: the flag
// (--clock must be real or fake (got "sundial")) or the environment
// variable (SIGNSANDBOX_CLOCK must be real or fake (got "nope")), never a
// flag the user did not type.
//
// To add a setting, add a row to its command's table
// (serveConfig.settingSet, runFlags.settingSet) with a parser built from
// the helpers below; its usage line in -h and its origin in errors follow.
// docs/cli.md needs its row (a test checks).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// setting is one row of a command's table.
type setting struct {
	// name is the flag, without dashes.
	name string
	// env is the environment variable read when the flag is not given:
	// envName(name) unless set; noEnv settings have none.
	env   string
	noEnv bool
	// arg names the value in the usage ("ADDR"); booleans have none.
	arg string
	// def is the default as text, parsed like any value.
	def string
	// usage says what the setting does, for -h.
	usage string
	// boolean settings take no value on the command line (--offline,
	// --offline=false) and read 1/0, true/false, yes/no or on/off.
	boolean bool
	// list settings may be repeated on the command line and are
	// comma-separated in the environment; parse sees each item.
	list bool
	// parse checks one value and stores it. An error made with bad
	// completes a sentence that starts with where the value came from;
	// any other error follows it after a colon.
	parse func(v string) error
}

// envName is the usual environment variable of a flag: SIGNSANDBOX_ and
// the flag upper-cased, dashes as underscores.
func envName(flag string) string {
	return "SIGNSANDBOX_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// envVar is the setting's environment variable ("" when it has none).
func (st *setting) envVar() string {
	switch {
	case st.noEnv:
		return ""
	case st.env != "":
		return st.env
	}
	return envName(st.name)
}

// badValue is an error that completes a sentence about a setting.
type badValue struct{ msg string }

func (e *badValue) Error() string { return e.msg }

// bad makes a badValue: bad("must be real or fake (got %q)", v).
func bad(format string, a ...any) error { return &badValue{msg: fmt.Sprintf(format, a...)} }

// settingSet is the settings of one command, bound to its flag set and
// its environment.
type settingSet struct {
	fs     *flag.FlagSet
	getenv func(string) string
	rows   []*setting
	byName map[string]*setting
	given  map[string]*flagValue
	// checks run once every row is parsed: rules between settings.
	checks []func(s *settingSet) error
	// takesArgs commands take arguments besides flags (run's files), in
	// any order with them; args holds them once parsed.
	takesArgs bool
	args      []string
}

// flagValue collects what the command line gives a flag; the table
// parses it.
type flagValue struct {
	boolean bool
	values  []string
}

func (v *flagValue) String() string     { return "" }
func (v *flagValue) Set(s string) error { v.values = append(v.values, s); return nil }
func (v *flagValue) IsBoolFlag() bool   { return v.boolean }

// newSettingSet declares rows as the flags of cmd ("signsandbox run").
func newSettingSet(cmd string, getenv func(string) string, rows ...setting) *settingSet {
	s := &settingSet{fs: flag.NewFlagSet(cmd, flag.ContinueOnError), getenv: getenv,
		byName: map[string]*setting{}, given: map[string]*flagValue{}}
	s.fs.SetOutput(io.Discard)
	s.fs.Usage = func() {}
	for i := range rows {
		st := &rows[i]
		s.rows = append(s.rows, st)
		s.byName[st.name] = st
		v := &flagValue{boolean: st.boolean}
		s.given[st.name] = v
		s.fs.Var(v, st.name, st.usage)
	}
	return s
}

// parse reads the command line (flags and, for a command that takes them,
// arguments in any order), then every setting from its flag, its
// environment variable or its default, in the table's order; the first
// problem is the error. Flag errors name the flag as users type it (--x).
// -h answers flag.ErrHelp.
func (s *settingSet) parse(args []string) error {
	for rest := args; ; {
		if err := s.fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return usageError{flagError(err)}
		}
		if s.fs.NArg() == 0 {
			break
		}
		if !s.takesArgs {
			return usageError{s.strayArgument(rest)}
		}
		if used := len(rest) - s.fs.NArg(); used > 0 && rest[used-1] == "--" {
			s.args = append(s.args, s.fs.Args()...) // "--" ends the flags
			break
		}
		s.args = append(s.args, s.fs.Arg(0))
		rest = s.fs.Args()[1:]
	}
	for _, st := range s.rows {
		for _, v := range s.values(st) {
			if err := st.parse(v); err != nil {
				return s.wrap(st.name, err)
			}
		}
	}
	for _, check := range s.checks {
		if err := check(s); err != nil {
			return err
		}
	}
	return nil
}

// values are the texts a setting is parsed from: the command line's
// (the last one, or each for a list), else its environment variable's,
// else its default.
func (s *settingSet) values(st *setting) []string {
	if given := s.given[st.name].values; len(given) > 0 {
		if st.list {
			return given
		}
		return given[len(given)-1:]
	}
	v := ""
	if env := st.envVar(); env != "" {
		v = s.getenv(env)
	}
	if v == "" {
		v = st.def
		switch {
		case st.list && v == "":
			return nil
		case st.boolean && v == "":
			v = "false"
		}
	}
	if !st.list {
		return []string{v}
	}
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// fromFlag reports whether the command line gave a setting.
func (s *settingSet) fromFlag(name string) bool {
	v := s.given[name]
	return v != nil && len(v.values) > 0
}

// origin names where a setting's value came from: its flag when the
// command line gave it, its environment variable when that did, else its
// flag (the default is the flag's). A nil set names the flag.
func (s *settingSet) origin(name string) string {
	if s == nil || s.fromFlag(name) {
		return "--" + name
	}
	if st := s.byName[name]; st != nil && st.envVar() != "" && s.getenv(st.envVar()) != "" {
		return st.envVar()
	}
	return "--" + name
}

// either names a setting by both its sources, for a message about a
// setting that was not given ("--data-dir (SIGNSANDBOX_DATA_DIR)").
func (s *settingSet) either(name string) string {
	if st := s.byName[name]; st != nil && st.envVar() != "" {
		return "--" + name + " (" + st.envVar() + ")"
	}
	return "--" + name
}

// wrap names the setting an error is about, as origin says.
func (s *settingSet) wrap(name string, err error) error {
	var b *badValue
	if errors.As(err, &b) {
		return errors.New(s.origin(name) + " " + b.msg)
	}
	return fmt.Errorf("%s: %w", s.origin(name), err)
}

// flagError rewrites the flag package's errors in the way users type
// flags (--name) and without its usage dump.
func flagError(err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return fmt.Errorf("unknown flag --%s", name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Errorf("--%s needs a value", name)
	}
	return err
}

// strayArgument refuses an argument the command takes none of; after a
// boolean flag, "true" or "false" is most likely meant as its value.
func (s *settingSet) strayArgument(args []string) error {
	arg := s.fs.Arg(0)
	if i := len(args) - s.fs.NArg(); i > 0 {
		prev := strings.TrimLeft(args[i-1], "-")
		if st := s.byName[prev]; st != nil && st.boolean {
			if _, err := parseBool(arg); err == nil {
				return fmt.Errorf("unexpected argument %q: a switch takes its value after '=' (--%s=%s)", arg, prev, arg)
			}
		}
	}
	return fmt.Errorf("unexpected argument %q", arg)
}

// usage writes the flags of the table, each with its environment variable
// and default, as flag.PrintDefaults lays them out; flags declared on the
// flag set outside the table follow.
func (s *settingSet) usage(w io.Writer) {
	for _, st := range s.rows {
		line := "  -" + st.name
		if st.arg != "" {
			line += " " + st.arg
		}
		var notes []string
		if env := st.envVar(); env != "" {
			notes = append(notes, env)
		}
		if st.def != "" && !st.boolean {
			notes = append(notes, "default "+st.def)
		}
		if st.boolean && st.def == "true" {
			notes = append(notes, "on by default; --"+st.name+"=false turns it off")
		}
		text := st.usage
		if len(notes) > 0 {
			text += " (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, text)
	}
	s.fs.VisitAll(func(f *flag.Flag) {
		if s.byName[f.Name] == nil {
			fmt.Fprintf(w, "  -%s\n    \t%s\n", f.Name, f.Usage)
		}
	})
}

// The parsers rows are built from.

// text stores a value as it is.
func text(p *string) func(string) error {
	return func(v string) error { *p = v; return nil }
}

// oneOf stores a value that is one of choices.
func oneOf(p *string, choices ...string) func(string) error {
	return func(v string) error {
		for _, c := range choices {
			if v == c {
				*p = v
				return nil
			}
		}
		return bad("must be %s (got %q)", orList(choices), v)
	}
}

// orList writes "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// boolean stores a switch.
func boolean(p *bool) func(string) error {
	return func(v string) error {
		b, err := parseBool(v)
		if err != nil {
			return err
		}
		*p = b
		return nil
	}
}

// parseBool reads a switch: 1/0, true/false, yes/no, on/off, in any case.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "t", "true", "yes", "on":
		return true, nil
	case "0", "f", "false", "no", "off":
		return false, nil
	}
	return false, bad("must be true or false (got %q)", v)
}

// positiveDuration stores a duration above zero.
func positiveDuration(p *time.Duration) func(string) error {
	return func(v string) error {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d <= 0 {
			return bad("must be a positive duration such as 10s or 2m (got %q)", v)
		}
		*p = d
		return nil
	}
}

// atLeast stores a whole number of at least min.
func atLeast(p *int, min int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < min {
			return bad("must be a whole number of at least %d (got %q)", min, v)
		}
		*p = n
		return nil
	}
}

// listenAddr stores a host:port to listen on or ask.
func listenAddr(p *string) func(string) error {
	return func(v string) error {
		if _, port, err := net.SplitHostPort(v); err != nil || port == "" {
			return bad("must be HOST:PORT, such as 127.0.0.1:8080 or :8080 (got %q)", v)
		}
		*p = v
		return nil
	}
}

// commaList checks each comma-separated entry of a value and stores them.
func commaList(p *[]string, check func(string) error) func(string) error {
	return func(v string) error {
		*p = nil
		for _, e := range strings.Split(v, ",") {
			if e = strings.TrimSpace(e); e == "" {
				continue
			}
			if err := check(e); err != nil {
				return err
			}
			*p = append(*p, e)
		}
		return nil
	}
}
