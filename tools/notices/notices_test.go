package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const root = "../.."

// THIRD_PARTY_NOTICES names every module linked into the binary on every
// release platform, with its licence files as the module cache holds them.
func TestNoticesAreCurrent(t *testing.T) {
	var want bytes.Buffer
	require.NoError(t, generate(root, "go", &want))
	got, err := os.ReadFile(filepath.Join(root, noticesFile))
	require.NoError(t, err)
	if !bytes.Equal(got, want.Bytes()) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(want.String(), "\n")
		i := 0
		for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
			i++
		}
		line := func(l []string) string {
			if i < len(l) {
				return l[i]
			}
			return "(end of file)"
		}
		t.Fatalf("%s is out of date (go.mod or a vendored file changed): run go run ./tools/notices -w\nline %d is %q, should be %q",
			noticesFile, i+1, line(gl), line(wl))
	}
}

// The platforms the notices cover are the release targets of
// .goreleaser.yaml.
func TestPlatformsAreTheReleaseTargets(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	require.NoError(t, err)
	var cfg struct {
		Builds []struct {
			ID     string   `yaml:"id"`
			Goos   []string `yaml:"goos"`
			Goarch []string `yaml:"goarch"`
			Ignore []struct {
				Goos   string `yaml:"goos"`
				Goarch string `yaml:"goarch"`
			} `yaml:"ignore"`
		} `yaml:"builds"`
	}
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	require.Len(t, cfg.Builds, 1, "one build: the signsandbox binary")
	b := cfg.Builds[0]
	var targets []string
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			if !slices.ContainsFunc(b.Ignore, func(i struct {
				Goos   string `yaml:"goos"`
				Goarch string `yaml:"goarch"`
			}) bool {
				return i.Goos == goos && i.Goarch == goarch
			}) {
				targets = append(targets, goos+"/"+goarch)
			}
		}
	}
	slices.Sort(targets)
	assert.Equal(t, platforms, targets)
}

func TestClassify(t *testing.T) {
	read := func(p string) string {
		raw, err := os.ReadFile(filepath.Join(root, p))
		require.NoError(t, err)
		return string(raw)
	}
	for text, want := range map[string]string{
		read("LICENSE"): "MIT",
		read("sandbox/internal/console/assets/pdfjs/LICENSE.txt"):                                                              "Apache-2.0",
		"Mozilla Public License, version 2.0\n\n1. Definitions":                                                                "MPL-2.0",
		"Redistribution and use in source and binary forms, with or\nwithout modification, are permitted. Neither the name of": "BSD-3-Clause",
		"Redistribution and use in source and binary forms, with or without modification, are permitted":                       "BSD-2-Clause",
		"MIT License: Permission is hereby granted, free of charge ... Apache License Version 2.0":                             "Apache-2.0 AND MIT",
	} {
		got, err := classify(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, got)
	}
	// A licence nobody has read yet stops the generator.
	_, err := classify("GNU GENERAL PUBLIC LICENSE Version 3, 29 June 2007")
	assert.Error(t, err)
	_, err = licence(component{Name: "example.com/gpl", Files: []noticeFile{{Path: "COPYING", Text: "GNU GENERAL PUBLIC LICENSE"}}})
	assert.ErrorContains(t, err, "example.com/gpl: COPYING: unknown licence")
	// A notice or a patent grant alone is not a licence.
	_, err = licence(component{Name: "example.com/bare", Files: []noticeFile{{Path: "NOTICE", Text: "Copyright"}}})
	assert.ErrorContains(t, err, "no licence file")
}

func TestProxyZip(t *testing.T) {
	assert.Equal(t, "https://proxy.golang.org/github.com/!burnt!sushi/toml/@v/v1.6.0.zip", proxyZip("github.com/BurntSushi/toml", "v1.6.0"))
}

func TestWrap(t *testing.T) {
	assert.Equal(t, "Note:     a b\n", wrap("Note:     ", "a  b"))
	long := strings.Repeat("word ", 30)
	for _, l := range strings.Split(strings.TrimSuffix(wrap("Note:     ", long), "\n"), "\n") {
		assert.LessOrEqual(t, len(l), 80)
		assert.True(t, strings.HasPrefix(l, "Note:     word") || strings.HasPrefix(l, "          word"), l)
	}
}
