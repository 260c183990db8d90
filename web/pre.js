// crowdlab's page glue, run inside the Emscripten module before main().
// - The page's query string becomes the command line, so it meets the same parser and checks as the
//   desktop's: ?scene=orca-corridor&N=40&width=2.5 -> --scene orca-corridor --set N=40 --set width=2.5
//   (`scene`, `seed` and `claim` are flags; every other key is a scene parameter).
//   ?fps=run runs `crowdlab fps` (?fps=quick: `crowdlab fps --quick`), the same cases as the desktop's.
// - Settings and saved presets live in IndexedDB: /crowdlab is an IDBFS folder, read before main()
//   and written back by the app after each change (platform_web.cpp).
// - window.crowdlab.state() returns the running scene's parameters and metrics as an object.
// - The threaded page's workers load this file too; all of it is the page's, so they skip it.
if (typeof window === 'object') {
  Module['arguments'] = Module['arguments'] || (function () {
    var args = [];
    var query = new URLSearchParams(window.location.search);
    if (query.has('fps')) return query.get('fps') === 'quick' ? ['fps', '--quick'] : ['fps'];
    query.forEach(function (value, key) {
      if (key === 'scene' || key === 'seed' || key === 'claim') args.push('--' + key, value);
      else args.push('--set', key + '=' + value);
    });
    return args;
  })();

  Module['preRun'] = [].concat(Module['preRun'] || []);
  Module['preRun'].push(function () {
    ENV['CROWDLAB_CONFIG_DIR'] = '/crowdlab';
    FS.mkdir('/crowdlab');
    FS.mount(IDBFS, {}, '/crowdlab');
    addRunDependency('crowdlab-storage');
    FS.syncfs(true, function (err) {
      if (err) console.warn('crowdlab: browser storage unavailable, settings will not persist: ' + err);
      removeRunDependency('crowdlab-storage');
    });
  });

  window.crowdlab = {
    state: function () {
      return JSON.parse(Module.ccall('crowdlab_state_json', 'string', [], []));
    },
    // The digest of a fresh run of `scene` (seed, steps, assignments 'name=value;...'), apart from the
    // scene on screen: the same on the one-thread page, the threaded page and the desktop.
    digest: function (scene, seed, steps, assignments) {
      return JSON.parse(Module.ccall('crowdlab_digest_json', 'string', ['string', 'number', 'number', 'string'],
                                     [scene, seed, steps, assignments || '']));
    }
  };
}
