// FilePicker: a button that opens the file chooser and sends the chosen file's bytes to the kernel. A file over
// `max_bytes` is neither read nor sent (the server would close the page's connection on so big a message): the
// page says `too_large` under the button instead. (Not ipywidgets' FileUpload: its file input stays out of the
// document, so nothing on the page can stop it sending a file; see file_picker.py.)

function render({ model, el }) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-widgets jupyter-button widget-upload";
  const input = document.createElement("input");
  input.type = "file";
  input.hidden = true;
  const refused = document.createElement("p");
  refused.className = "et-file-refused";
  refused.setAttribute("role", "alert");
  refused.hidden = true;
  el.append(button, input, refused);

  const update = () => {
    const icon = document.createElement("i");
    icon.className = "fa fa-" + model.get("icon");
    icon.setAttribute("aria-hidden", "true");
    button.replaceChildren(icon, document.createTextNode(" " + model.get("description")));
    input.accept = model.get("accept");
    if (!refused.hidden) refused.textContent = model.get("too_large"); // the page's language changed
  };
  const say = (text) => {
    refused.hidden = !text;
    refused.textContent = text;
  };
  button.addEventListener("click", () => {
    input.value = ""; // the same file chosen again is a new choice
    input.click();
  });
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    if (file.size > model.get("max_bytes")) {
      say("");
      requestAnimationFrame(() => say(model.get("too_large"))); // a new alert each time, even the same words
      return;
    }
    say("");
    let data;
    try {
      data = await file.arrayBuffer();
    } catch (error) {
      console.warn("escoba-tutor: the chosen file could not be read", error);
      return;
    }
    model.send({ event: "file", name: file.name }, undefined, [data]);
  });
  model.on("change:description change:icon change:accept change:too_large", update);
  update();
  return () => model.off("change:description change:icon change:accept change:too_large", update);
}

export default { render };
