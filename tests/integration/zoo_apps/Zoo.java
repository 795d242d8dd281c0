/* SPDX-License-Identifier: MIT */
import java.awt.*;
import java.awt.event.*;
import javax.swing.*;
import javax.swing.event.*;

public class Zoo {
    static void say(String s) { System.out.println(s); System.out.flush(); }

    public static void main(String[] args) throws Exception {
        JPopupMenu.setDefaultLightWeightPopupEnabled(false);
        Color orange = new Color(0xff, 0x80, 0x00);
        UIManager.put("PopupMenu.background", orange);
        UIManager.put("MenuItem.background", orange);
        UIManager.put("MenuItem.selectionBackground", orange);
        SwingUtilities.invokeLater(() -> {
            JFrame frame = new JFrame("zoo-java");
            frame.setDefaultCloseOperation(JFrame.EXIT_ON_CLOSE);
            JMenuBar bar = new JMenuBar();
            JMenu file = new JMenu("File");
            for (String label : new String[] {"One", "Two", "Three"}) {
                file.add(new JMenuItem(label));
            }
            JPopupMenu popup = file.getPopupMenu();
            popup.setBorder(BorderFactory.createEmptyBorder());
            popup.addPopupMenuListener(new PopupMenuListener() {
                public void popupMenuWillBecomeVisible(PopupMenuEvent e) {
                    SwingUtilities.invokeLater(() -> {
                        Window w = SwingUtilities.getWindowAncestor(popup);
                        Point p = w.getLocationOnScreen();
                        say("menu " + p.x + " " + p.y + " " + w.getWidth() + " " + w.getHeight());
                    });
                }
                public void popupMenuWillBecomeInvisible(PopupMenuEvent e) { say("menu-unmap"); }
                public void popupMenuCanceled(PopupMenuEvent e) {}
            });
            bar.add(file);
            frame.setJMenuBar(bar);
            JButton open = new JButton("Dialog");
            open.addActionListener(ev -> {
                JDialog d = new JDialog(frame, "zoo-java dialog");
                d.add(new JLabel("A dialog", SwingConstants.CENTER));
                d.setSize(200, 100);
                d.setLocationRelativeTo(frame);
                d.setDefaultCloseOperation(WindowConstants.DISPOSE_ON_CLOSE);
                d.setVisible(true);
            });
            frame.add(open);
            frame.setSize(360, 240);
            frame.setLocation(200, 150);
            frame.setVisible(true);
        });
    }
}
