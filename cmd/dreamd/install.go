package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/service"
)

type installOptions struct {
	*globalOptions
	Timer   bool
	Target  string
	NoStart bool
}

func newInstallCmd(g *globalOptions) *cobra.Command {
	o := &installOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use: "install [--timer] [--target systemd|launchd] [--no-start]",
		Example: `  dreamd install                    # the daemon, restarted on failure
  dreamd install --timer            # or an hourly oneshot pass instead
  dreamd install --config ~/dreamd.yaml --no-start`,
		Short: "Install dreamd as a systemd user service or a launchd LaunchAgent",
		Long: `Install the daemon as a user service: a systemd user unit on Linux
(~/.config/systemd/user/dreamd.service), a LaunchAgent on macOS
(~/Library/LaunchAgents/dev.dreamd.agent.plist). With --timer, install a oneshot
` + "`run --once --gated`" + ` on an hourly timer instead of the long-running daemon. Then enable and start
it unless --no-start. Installing twice is harmless.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return runInstall(o, false) },
	}
	addServiceFlags(cmd, o)
	cmd.Flags().BoolVar(&o.Timer, "timer", false, "a oneshot pass on a timer instead of the daemon")
	cmd.Flags().BoolVar(&o.NoStart, "no-start", false, "write the files but do not enable or start anything")
	return cmd
}

func newUninstallCmd(g *globalOptions) *cobra.Command {
	o := &installOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:     "uninstall [--target systemd|launchd]",
		Example: `  dreamd uninstall`,
		Short:   "Stop and remove what `dreamd install` wrote",
		Long: `Stop the service and remove everything install left behind: the systemd units (daemon
or timer) or the LaunchAgent plist, the timer's Persistent= stamp under
$XDG_DATA_HOME/systemd/timers/, and the LaunchAgent's log. Your memory and dreamd's
state directory are kept. Nothing installed is not an error.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return runInstall(o, true) },
	}
	addServiceFlags(cmd, o)
	return cmd
}

func addServiceFlags(cmd *cobra.Command, o *installOptions) {
	cmd.Flags().StringVar(&o.Target, "target", "", "systemd or launchd (default: by operating system)")
	fixedValues(cmd, "target", "systemd", "launchd")
}

func runInstall(o *installOptions, remove bool) error {
	if o.Target != "" && o.Target != "systemd" && o.Target != "launchd" {
		return usagef(fmt.Sprintf("--target %q: want systemd or launchd", o.Target))
	}
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	if bin, err = filepath.EvalSymlinks(bin); err != nil {
		return err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return err
	}
	cfgFile := ""
	if o.ConfigFile != "" {
		if cfgFile, err = filepath.Abs(o.ConfigFile); err != nil {
			return err
		}
	}
	opt := service.Options{Target: o.Target, Timer: o.Timer, NoStart: o.NoStart, Binary: bin, ConfigFile: cfgFile,
		Home: home, UID: os.Getuid(), Out: o.Err} // the commands it runs are progress, not the result
	var res service.Result
	if remove {
		res, err = service.Uninstall(opt)
	} else {
		res, err = service.Install(opt)
	}
	if perr := o.print(installResult(res)); perr != nil {
		return errors.Join(err, perr)
	}
	if err != nil && !remove && len(res.Written) > 0 {
		return fmt.Errorf("%w\nthe files above are written; start the service once its manager is reachable, or install with --no-start", err)
	}
	return err
}

// installResult is what install or uninstall wrote, removed and suggests.
type installResult service.Result

func (r installResult) render(w io.Writer, _ bool) error {
	for _, f := range r.Written {
		fmt.Fprintf(w, "wrote %s\n", f)
	}
	for _, f := range r.Removed {
		fmt.Fprintf(w, "removed %s\n", f)
	}
	for _, h := range r.Hints {
		fmt.Fprintf(w, "hint: %s\n", h)
	}
	return nil
}
