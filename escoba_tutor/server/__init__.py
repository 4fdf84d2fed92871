"""The server's guard rails: what one student's browser (or a script in its place) may cost a shared class server.

- :mod:`.settings`: the server's settings in one object, built once (the command line, or the hub's environment);
- :mod:`.limits`: the limits and their defaults (from the machine's memory), and the register of who started
  which kernel (plain Python, no server import);
- :mod:`.hosts`: the ``Host`` names the server answers (DNS rebinding);
- :mod:`.logs`: repeated log lines collapsed into counts;
- :mod:`.kernels`: the kernel managers (kernels bound to the browser that started them, never-connected kernels
  shut down, the kernel command with its memory limit);
- :mod:`.kernel_launch`: the kernel process itself, its memory limit set before ipykernel starts;
- :mod:`.handlers`: the HTTP and websocket handlers that apply all this;
- :mod:`.compiled_templates`: Voilà's page templates compiled once per server, not again for every page;
- :mod:`.framework`: the names inside Voilà, jupyter_server, Tornado, ipykernel and IPython that the server relies
  on, checked when it starts (docs/development.md, "The frameworks' insides").

docs/hostile-input.md ("Resource limits") says what each one does; docs/classroom.md gives the defaults.
"""
