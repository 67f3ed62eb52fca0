#!/usr/bin/perl
# Lists the external programs that the project's scripts call, one per line as
# "PROGRAM<TAB>FILE:LINE" (the first place each is called), for tests/t0004.
#
#   perl tests/deps-scan.pl [TOP]
#
# What it reads:
# - every shell script under tests/, bench/, reports/, .ci/ … (by a .sh name or
#   a #!…sh first line), parsed by shfmt (--to-json gives bash's syntax tree);
#   a command is the first word of each simple command, past assignments and the
#   wrappers that run another command (env, exec, timeout N, xargs, …).  Shell
#   code held in a string is parsed too: test bodies (test_expect's last
#   argument), `sh -c`/`bash -c` arguments, eval and trap strings;
# - the Makefile's recipes and $(shell …) calls, with make's own expansions
#   standing in as words that name no program, and the programs its variables
#   (CC, PROVE) name;
# - the system()/exec()/backtick/pipe-open calls of the Perl scripts and the
#   programs C code starts by name (execlp/execvp/system/popen).
# Functions the scripts define and shell builtins are not programs.  A command
# word that is not literal (a variable, "$SHDB") is the project's own or chosen
# by the caller, and is skipped.
use strict;
use warnings;
use File::Find;
use JSON::PP;
use File::Temp qw(tempdir);

my $top = shift // '.';
chdir $top or die "$top: $!\n";

my (%sites, %functions, %guarded);
my $tmp = tempdir(CLEANUP => 1);
my %builtin = map { $_ => 1 } split ' ', `bash -c 'compgen -b; compgen -k'`;
# wrappers whose next word, after options (and N arguments), is a command
my %wrapper = (env => 0, exec => 0, nice => 0, nohup => 0, command => 0, builtin => 0,
	xargs => 0, sudo => 0, timeout => 1, expect_status => 1, setsid => 0, stdbuf => 0);
# commands whose argument is shell code: the index of that argument (-1: the last)
my %code_arg = (test_expect => -1, eval => 0, trap => 0);

sub add {
	my ($prog, $where) = @_;
	return if $prog !~ m{^[A-Za-z_./][A-Za-z0-9_.+/-]*$} || $prog =~ m{^\.|^[^/]+/};
	return if $builtin{$prog};
	push @{$sites{$prog}}, $where;
}

# The text of a word when it is literal (plain, quoted or both), else undef.
sub literal {
	my $w = shift;
	my $s = '';
	for my $p (@{$w->{Parts} // []}) {
		my $t = $p->{Type} // '';
		if ($t eq 'Lit' || $t eq 'SglQuoted') { $s .= $p->{Value}; }
		elsif ($t eq 'DblQuoted') {
			for my $q (@{$p->{Parts} // []}) {
				return undef unless ($q->{Type} // '') eq 'Lit';
				$s .= $q->{Value};
			}
		} else { return undef; }
	}
	return $s;
}

# Shell code waiting to be parsed: [file, text, line of its first line - 1].
my @queue;

sub parse_shell { push @queue, [@_]; }

# Parses every queued piece in one shfmt run, each as a { … } group of one
# file, and walks the trees; pieces found in them go round again.
sub drain {
	while (@queue) {
		my @batch = @queue;
		@queue = ();
		my ($text, @starts) = ('');
		for my $b (@batch) {
			my $lines = 1 + ($text =~ tr/\n//);
			push @starts, $lines + 1;
			$text .= "{\n$b->[1]\n}\n";
		}
		my $json = shfmt($text);
		if (!defined $json) {
			# find the piece that does not parse, to name it
			shfmt("$_->[1]\n") // die "$_->[0]:$_->[2]: shfmt cannot parse this shell code\n" for @batch;
			die "shfmt cannot parse the pieces together\n";
		}
		my $at = sub {
			my $line = shift;
			my $i = 0;
			$i++ while $i < $#starts && $starts[$i + 1] <= $line;
			my $b = $batch[$i];
			return ($b->[0], $b->[2] + $line - $starts[$i]);
		};
		# positions: only the line of each node's start is used (decoding is the slow part)
		$json =~ s/"Pos":\s*\{\s*"Offset":\s*\d+,\s*"Line":\s*(\d+),\s*"Col":\s*\d+\s*\}/"L":$1/g;
		$json =~ s/,?\s*"\w+":\s*\{\s*"Offset":\s*\d+,\s*"Line":\s*\d+,\s*"Col":\s*\d+\s*\}//g;
		$json =~ s/\{\s*,/{/g;
		walk(decode_json($json), $at);
	}
}

sub shfmt {
	my $text = shift;
	my ($in, $out) = ("$tmp/in.sh", "$tmp/out.json");
	open my $fh, '>:encoding(UTF-8)', $in or die "$in: $!\n";
	print $fh $text;
	close $fh;
	system("shfmt --to-json <'$in' >'$out' 2>'$tmp/err'") == 0 or return undef;
	open $fh, '<:raw', $out or die "$out: $!\n";
	local $/;
	return <$fh>;
}

sub call_expr {
	my ($node, $at) = @_;
	my @args = @{$node->{Args} // []};
	my $where = sub { my ($f, $l) = $at->($_[0]{L}); "$f:$l" };
	while (@args) {
		my $name = literal($args[0]);
		return unless defined $name;
		# command -v X: the script asks whether X is there before it calls it
		if ($name eq 'command' && @args > 2 && (literal($args[1]) // '') =~ /^-[vV]$/) {
			my $x = literal($args[2]);
			my ($f) = $at->($args[2]{L});
			$guarded{$f}{$x} = 1 if defined $x;
		}
		return if $name eq 'command' && @args > 1 && (literal($args[1]) // '') =~ /^-[vV]$/;
		if (exists $wrapper{$name}) {
			add($name, $where->($args[0]));
			my $n = $wrapper{$name};
			shift @args;
			shift @args while @args && ((literal($args[0]) // '') =~ /^-|^\w+=/);
			shift @args for 1 .. $n;
			next;
		}
		if ($name eq 'sh' || $name eq 'bash') {
			for my $i (0 .. $#args - 1) {
				next unless (literal($args[$i]) // '') eq '-c';
				my $code = literal($args[$i + 1]);
				my ($f, $l) = $at->($args[$i + 1]{L});
				parse_shell($f, $code, $l - 1) if defined $code;
			}
		}
		if (exists $code_arg{$name} && @args > 1) {
			my $k = $code_arg{$name} < 0 ? $#args : 1 + $code_arg{$name};
			my $code = literal($args[$k]);
			my ($f, $l) = $at->($args[$k]{L});
			parse_shell($f, $code, $l - 1) if defined $code;
		}
		add($name, $where->($args[0]));
		return;
	}
}

sub walk {
	my ($n, $at) = @_;
	if (ref $n eq 'HASH') {
		my $t = $n->{Type} // '';
		$functions{$n->{Name}{Value}} = 1 if $t eq 'FuncDecl';
		# X=/usr/bin/time: a variable that names a program by its path
		for my $a (@{$n->{Assigns} // []}) {
			my $v = $a->{Value} ? literal($a->{Value}) : undef;
			add($v, join(':', $at->($a->{L}))) if defined $v && $v =~ m{^(/usr)?/s?bin/[^/]+$};
		}
		call_expr($n, $at) if $t eq 'CallExpr';
		walk($n->{$_}, $at) for grep { ref $n->{$_} } sort keys %$n;
	} elsif (ref $n eq 'ARRAY') {
		walk($_, $at) for @$n;
	}
}

sub slurp {
	my $file = shift;
	open my $fh, '<:encoding(UTF-8)', $file or die "$file: $!\n";
	local $/;
	return <$fh>;
}

# A make expression $(…) or ${…} at the start of $s: its length, or 0.
sub make_expr_len {
	my $s = shift;
	return 0 unless $s =~ /^\$([({])/;
	my ($open, $close) = ($1, $1 eq '(' ? ')' : '}');
	my $depth = 0;
	for my $i (1 .. length($s) - 1) {
		my $c = substr($s, $i, 1);
		$depth++ if $c eq $open;
		$depth-- if $c eq $close;
		return $i + 1 if $depth == 0;
	}
	return length $s;
}

# A recipe line as shell: $$ is $, $(shell X) is $(X), other make expansions
# become a word that names no program.
sub recipe_to_shell {
	my $s = shift;
	my $r = '';
	while (length $s) {
		if ($s =~ /^\$\$/) { $r .= '$'; $s = substr($s, 2); next; }
		if ($s =~ /^\$[^({]/) { $r .= '"$MAKEVAR"'; $s = substr($s, 2); next; }
		my $n = make_expr_len($s);
		if ($n) {
			my $e = substr($s, 0, $n);
			$r .= $e =~ /^\$\(shell\s+(.*)\)$/s ? '$(' . recipe_to_shell($1) . ')' : '"$MAKEVAR"';
			$s = substr($s, $n);
			next;
		}
		$r .= substr($s, 0, 1);
		$s = substr($s, 1);
	}
	return $r;
}

sub scan_makefile {
	my $file = shift;
	my @lines = split /\n/, slurp($file);
	for (my $i = 0; $i < @lines; $i++) {
		my $line = $lines[$i];
		add($1, "$file:" . ($i + 1)) if $line =~ /^(?:CC|PROVE)\s*[?:]?=\s*(\S+)/;
		my $start = $i;
		my @texts;
		if ($line =~ /^\t/) {
			my $t = $line;
			$t .= "\n" . $lines[++$i] while $t =~ /\\$/ && $i + 1 < @lines;
			$t =~ s/^\t[@+-]*//;
			$t =~ s/\$\((?:Q|QUIET_\w+)\)//g;
			push @texts, recipe_to_shell($t);
		} else {
			push @texts, '$(' . recipe_to_shell($1) . ')' while $line =~ /\$\(shell\s+([^)]*)\)/g;
		}
		parse_shell($file, $_, $start) for @texts;
	}
}

sub scan_perl {
	my $file = shift;
	my $n = 0;
	for my $line (split /\n/, slurp($file)) {
		$n++;
		next if $line =~ /^\s*#/;
		add($1, "$file:$n") while $line =~ /\b(?:system|exec)\s*\(?\s*['"]([\w.+-]+)/g;
		add($1, "$file:$n") while $line =~ /(?:`|\bqx\s*[({\/])\s*([\w.+-]+)/g;
		add($1, "$file:$n") while $line =~ /\bopen\s*\(?[^,]*,\s*['"]-\|['"]\s*,\s*['"]([\w.+-]+)/g;
		add($1, "$file:$n") while $line =~ /\bopen\s*\(?[^,]*,\s*['"]([\w.+-]+)[^'"]*\|['"]/g;
	}
}

sub scan_c {
	my $file = shift;
	my $n = 0;
	for my $line (split /\n/, slurp($file)) {
		$n++;
		add($1, "$file:$n") while $line =~ /\bexec[lv]p\s*\(\s*"([\w.+-]+)"/g;
		add($1, "$file:$n") while $line =~ /\b(?:system|popen)\s*\(\s*"([\w.+-]+)/g;
	}
}

sub kind {
	my $file = shift;
	return 'c' if $file =~ /\.[ch]$/;
	return 'perl' if $file =~ /\.pl$/;
	return 'sh' if $file =~ /\.sh$/;
	open my $fh, '<', $file or return '';
	my $l = <$fh> // '';
	return $l =~ /^#!.*\bperl\b/ ? 'perl' : $l =~ /^#!.*\b(ba|da)?sh\b/ ? 'sh' : '';
}

my %files;
find({ no_chdir => 1, wanted => sub {
	my $f = $File::Find::name;
	$f =~ s{^\./}{};
	if (-d $f) {
		$File::Find::prune = 1 if $f =~ m{^(build|build-san|results|\.git|shdb)$} || $f =~ m{/\.git$};
		return;
	}
	my $k = kind($f);
	push @{$files{$k}}, $f if $k;
} }, '.');

for my $f (sort @{$files{sh} // []}) {
	parse_shell($f, slurp($f), 0);
}
scan_makefile('Makefile');
drain();
scan_perl($_) for sort @{$files{perl} // []};
scan_c($_) for sort @{$files{c} // []};

# PROGRAM, the first place it is called and, when every call is in a file that
# asks `command -v PROGRAM` first, "optional"
for my $p (sort keys %sites) {
	next if $functions{$p};
	my @s = @{$sites{$p}};
	my $optional = !grep { my ($f) = /^(.*):\d+$/; !$guarded{$f}{$p} } @s;
	print join("\t", $p, $s[0], $optional ? 'optional' : ()), "\n";
}
